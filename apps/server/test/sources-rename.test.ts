/**
 * PATCH /api/v1/sources/:sourceId with `name` and `is_active`, and what the delivery host makes of
 * it: a former name answers 301 to the current one and cannot be taken by another source; an
 * inactive source's URLs answer 404 on the next request, on a second instance sharing the
 * database too (no instance caches sources). The origin is an `image_source` on loopback.
 */
import { type Source, sourceResponseSchema } from "@trove/schema";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { DUPLICATE, NOT_FOUND, type SourcesApi, sourcesApi, uniqueName } from "./sources-fixtures.js";
import { createTestApp, type TestApp } from "./support/index.js";
import {
  loopbackOnlyConnector,
  startTestServer,
  type TestServer,
  tableLookup,
} from "./support/network-doubles.js";
import { solid } from "./support/test-images.js";

let t: TestApp;
/** A second instance on the same database and storage, as behind a load balancer. */
let other: FastifyInstance;
let api: SourcesApi;
let web: TestServer;
let png: Buffer;

beforeAll(async () => {
  png = await solid(40, 20, { r: 10, g: 120, b: 200 }, "png");
  web = await startTestServer((_req, res) => {
    res.writeHead(200, { "content-type": "image/png", etag: '"v1"', "content-length": png.length });
    res.end(png);
  });
  t = await createTestApp({
    config: {
      trustedRanges: "127.0.0.0/8",
      origins: { ttlMs: 60_000 },
      outbound: { lookup: tableLookup({ "origin.test": "127.0.0.1" }), connect: loopbackOnlyConnector() },
    },
  });
  other = await buildApp({
    config: { ...t.config, seedDev: false },
    database: t.app.database,
    closeDatabase: false,
    migrate: false,
    logger: false,
  });
  await other.ready();
  api = sourcesApi(t);
}, 60_000);

afterAll(async () => {
  await other?.close();
  await t?.close();
  await web?.close();
});

async function createSource(name = uniqueName("web")): Promise<Source> {
  const res = await api.create({
    name,
    type: "image_source",
    configuration: { base_url: `http://origin.test:${web.port}/img` },
  });
  expect(res.statusCode, res.body).toBe(201);
  return sourceResponseSchema.parse(res.json()).data;
}

async function patchOk(id: string, payload: unknown): Promise<Source> {
  const res = await api.patch(id, payload);
  expect(res.statusCode, res.body).toBe(200);
  return sourceResponseSchema.parse(res.json()).data;
}

function deliver(
  origin: string,
  rest = "a/b.png",
  app: FastifyInstance = t.app,
  method: "GET" | "HEAD" = "GET",
) {
  return app.inject({ method, url: `/assets/${t.workspace.workspaceNo}-${origin}/${rest}` });
}

/** The delivery URL `rest` under `origin`, as a Location header carries it. */
function locationOf(origin: string, rest: string): string {
  return `${t.config.assetsUrl}/${t.workspace.workspaceNo}-${origin}/${rest}`;
}

describe("rename", () => {
  it("takes a new name by the creation rules; the source, its list row and its URLs follow", async () => {
    const source = await createSource();
    const name = uniqueName("renamed");
    const renamed = await patchOk(source.id, { name });
    expect(renamed).toMatchObject({ id: source.id, name, created_at: source.created_at });
    expect(renamed.updated_at).not.toBeNull();
    expect((await api.get(source.id)).json().data.name).toBe(name);
    expect((await api.list({ search: name })).json().sources.map((s: Source) => s.id)).toEqual([source.id]);
    const res = await deliver(name);
    expect(res.statusCode, res.body).toBe(200);
    expect(Buffer.compare(res.rawPayload, png)).toBe(0);
  });

  it("refuses a name that breaks the creation rules, changing nothing", async () => {
    const source = await createSource();
    for (const name of ["", "with space", "a.b", "x".repeat(256), 7]) {
      const res = await api.patch(source.id, { name });
      expect(res.statusCode, String(name)).toBe(400);
      expect(res.json()).toMatchObject({
        error: "Validation failed",
        message: expect.stringMatching(/^name: /),
      });
    }
    expect((await api.get(source.id)).json().data).toMatchObject({ name: source.name, updated_at: null });
  });

  it("refuses another source's live name with the spec's 409", async () => {
    const a = await createSource();
    const b = await createSource();
    const res = await api.patch(b.id, { name: a.name });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(DUPLICATE);
  });

  it("two concurrent renames to one name: exactly one wins, the other is 409", async () => {
    const a = await createSource();
    const b = await createSource();
    const name = uniqueName("contested");
    const results = await Promise.all([api.patch(a.id, { name }), api.patch(b.id, { name })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await api.list({ search: name })).json().meta.total).toBe(1);
  });
});

describe("former names", () => {
  it("the old URL answers 301 to the same path and query under the new name", async () => {
    const source = await createSource();
    const name = uniqueName("moved");
    await patchOk(source.id, { name });
    const rest = "w_10,f_webp/photos/cat%20one.png?v=3";
    const res = await deliver(source.name, rest);
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(locationOf(name, rest));
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    const head = await deliver(source.name, "a/b.png", t.app, "HEAD");
    expect(head.statusCode).toBe(301);
    expect(head.headers.location).toBe(locationOf(name, "a/b.png"));
    const location = new URL(res.headers.location as string);
    const followed = await t.app.inject({ url: `${location.pathname}${location.search}` });
    expect(followed.statusCode, followed.body).toBe(200);
    expect(followed.headers["content-type"]).toBe("image/webp");
  });

  it("every former name redirects straight to the current one", async () => {
    const source = await createSource();
    const second = uniqueName("second");
    const third = uniqueName("third");
    await patchOk(source.id, { name: second });
    await patchOk(source.id, { name: third });
    for (const former of [source.name, second]) {
      const res = await deliver(former);
      expect(res.statusCode, former).toBe(301);
      expect(res.headers.location).toBe(locationOf(third, "a/b.png"));
    }
  });

  it("cannot be taken by another source, by create or by rename", async () => {
    const source = await createSource();
    await patchOk(source.id, { name: uniqueName("new") });
    const created = await api.create({
      name: source.name,
      type: "image_source",
      configuration: { base_url: "https://images.example.com" },
    });
    expect(created.statusCode).toBe(409);
    expect(created.json()).toEqual(DUPLICATE);
    const otherSource = await createSource();
    const renamed = await api.patch(otherSource.id, {
      name: source.name,
      configuration: { forward_header: true },
    });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json()).toEqual(DUPLICATE);
    expect((await api.get(otherSource.id)).json().data).toMatchObject({
      name: otherSource.name,
      updated_at: null,
    });
    expect((await deliver(source.name)).statusCode).toBe(301);
  });

  it("can be taken back by its own source (a rename undone); the name left becomes the alias", async () => {
    const source = await createSource();
    const name = uniqueName("undo");
    await patchOk(source.id, { name });
    expect((await patchOk(source.id, { name: source.name })).name).toBe(source.name);
    expect((await deliver(source.name)).statusCode).toBe(200);
    const res = await deliver(name);
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(locationOf(source.name, "a/b.png"));
  });

  it("are freed when their source is deleted", async () => {
    const source = await createSource();
    await patchOk(source.id, { name: uniqueName("gone") });
    expect((await api.remove(source.id)).statusCode).toBe(204);
    expect((await deliver(source.name)).json()).toEqual(NOT_FOUND);
    const again = await createSource(source.name);
    expect((await deliver(again.name)).statusCode).toBe(200);
  });

  it("of an inactive source answer 404, not a redirect", async () => {
    const source = await createSource();
    await patchOk(source.id, { name: uniqueName("off"), is_active: false });
    const res = await deliver(source.name);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND);
  });

  it("a rename on one instance is seen by the other on its next request", async () => {
    const source = await createSource();
    expect((await deliver(source.name, "a/b.png", other)).statusCode).toBe(200);
    const name = uniqueName("elsewhere");
    await patchOk(source.id, { name });
    const res = await deliver(source.name, "a/b.png", other);
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(locationOf(name, "a/b.png"));
    expect((await deliver(name, "a/b.png", other)).statusCode).toBe(200);
  });
});

describe("is_active", () => {
  it("false: the source's URLs answer 404 on the next request on every instance; true serves again", async () => {
    const source = await createSource();
    for (const app of [t.app, other])
      expect((await deliver(source.name, "a/b.png", app)).statusCode).toBe(200);
    const off = await patchOk(source.id, { is_active: false });
    expect(off.is_active).toBe(false);
    expect((await api.get(source.id)).json().data.is_active).toBe(false);
    for (const app of [t.app, other]) {
      const res = await deliver(source.name, "a/b.png", app);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
      expect((await deliver(source.name, "w_10/a/b.png", app)).statusCode).toBe(404);
    }
    expect((await patchOk(source.id, { is_active: true })).is_active).toBe(true);
    for (const app of [t.app, other]) {
      const res = await deliver(source.name, "a/b.png", app);
      expect(res.statusCode).toBe(200);
      expect(Buffer.compare(res.rawPayload, png)).toBe(0);
    }
  });

  it("a value that is not a boolean is 400 in the sources envelope, changing nothing", async () => {
    const source = await createSource();
    for (const is_active of ["false", 0, null, [], {}]) {
      const res = await api.patch(source.id, { is_active });
      expect(res.statusCode, JSON.stringify(is_active)).toBe(400);
      expect(res.json()).toEqual({
        error: "Validation failed",
        message: expect.stringMatching(/^is_active: /),
      });
    }
    expect((await api.get(source.id)).json().data).toMatchObject({ is_active: true, updated_at: null });
  });
});

describe("workspace_no", () => {
  it("every source response names the key's workspace", async () => {
    const source = await createSource();
    expect(source.workspace_no).toBe(t.workspace.workspaceNo);
    expect((await api.get(source.id)).json().data.workspace_no).toBe(t.workspace.workspaceNo);
    const rows = (await api.list({ search: source.name })).json().sources;
    expect(rows[0].workspace_no).toBe(t.workspace.workspaceNo);
  });
});
