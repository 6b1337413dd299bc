// The route table of @trove/schema is the whole API: every route the server registers under /api
// or /admin is one of its entries (method and path), and every entry is registered, the part
// gateway included. A route added by hand without a table entry fails here.
import { ROUTE_TABLE } from "@trove/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TUS_ROUTES } from "../src/tus/tus-routes.js";
import { createAdminTestApp } from "./admin-support.js";
import type { TestApp } from "./support/index.js";

/**
 * Every route Fastify registered, as `METHOD path`, read from `printRoutes({ commonPrefix: false })`:
 * one node a line, indented four columns a level under the node whose path it extends, with its
 * methods in parentheses (HEAD is the automatic twin of GET, left out).
 */
function registeredRoutes(tree: string): string[] {
  const routes: string[] = [];
  const ancestors: string[] = [];
  for (const line of tree.split("\n")) {
    const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? "").length / 4;
    ancestors.length = depth;
    const path = `${ancestors.join("")}${match[2]}`;
    ancestors.push(match[2] ?? "");
    for (const method of (match[3] ?? "").split(", ").filter((m) => m !== "" && m !== "HEAD"))
      routes.push(`${method} ${path}`);
  }
  return routes;
}

describe("the route table is the API", () => {
  let t: TestApp;
  let routes: string[];
  beforeAll(async () => {
    t = await createAdminTestApp();
    await t.app.ready();
    routes = registeredRoutes(t.app.printRoutes({ commonPrefix: false }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it("has an entry for every route registered under /api or /admin", () => {
    const table = new Set(ROUTE_TABLE.map((route) => `${route.method} ${route.path}`));
    // tus (a header protocol with HEAD and OPTIONS) is listed by its plugin, not the table.
    const tus = new Set(
      TUS_ROUTES.flatMap((route) => route.methods.map((method) => `${method} ${route.url}`)),
    );
    const api = routes.filter((route) => /^\S+ \/(api|admin)(\/|$)/.test(route) && !tus.has(route));
    expect(api.length).toBe(ROUTE_TABLE.length);
    expect(api.filter((route) => !table.has(route))).toEqual([]);
  });

  it("sees a route added by hand, so one outside the table fails the check above", async () => {
    const extra = await createAdminTestApp({
      routes: [async (app) => void app.get("/api/v1/files/:fileNo/unlisted", async () => ({}))],
    });
    try {
      await extra.app.ready();
      expect(registeredRoutes(extra.app.printRoutes({ commonPrefix: false }))).toContain(
        "GET /api/v1/files/:fileNo/unlisted",
      );
    } finally {
      await extra.close();
    }
  });

  it("registers every entry, with the entry's key requirement, group and operation id", () => {
    for (const route of ROUTE_TABLE) {
      expect(routes, route.operationId).toContain(`${route.method} ${route.path}`);
      expect(t.app.hasRoute({ method: route.method, url: route.path }), route.operationId).toBe(true);
    }
  });
});
