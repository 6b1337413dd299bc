import { describe, expect, it } from "vitest";
import { ADMIN_ENDPOINTS } from "./admin-endpoints.js";
import { ENDPOINTS } from "./endpoints.js";
import { errorGroupOf } from "./error-groups.js";
import { ADMIN_ROUTES, API_ROUTES, ROUTE_TABLE, routeOf } from "./route-table.js";

describe("the route table", () => {
  it("has one entry per operation, with unique operation ids, numbers and method + path", () => {
    expect(new Set(ROUTE_TABLE.map((route) => route.operationId)).size).toBe(ROUTE_TABLE.length);
    expect(new Set(ROUTE_TABLE.map((route) => route.number)).size).toBe(ROUTE_TABLE.length);
    expect(new Set(ROUTE_TABLE.map((route) => `${route.method} ${route.path}`)).size).toBe(
      ROUTE_TABLE.length,
    );
  });

  it("is what the registries carry: each endpoint is its table entry plus schemas", () => {
    expect(ENDPOINTS.map((endpoint) => endpoint.operationId)).toEqual(
      API_ROUTES.map((route) => route.operationId),
    );
    expect(ADMIN_ENDPOINTS.map((endpoint) => endpoint.operationId)).toEqual(
      ADMIN_ROUTES.map((route) => route.operationId),
    );
    for (const endpoint of [...ENDPOINTS, ...ADMIN_ENDPOINTS])
      expect(endpoint, endpoint.operationId).toMatchObject(routeOf(endpoint.operationId));
  });

  it("gives an unrouted URL the group of the table's paths under its longest shared prefix", () => {
    expect(errorGroupOf("/api/v1/files/12/nope")).toBe("files");
    expect(errorGroupOf("/api/v1/uploads/tokens/x")).toBe("upload");
    expect(errorGroupOf("/admin/v1/nothing-here")).toBe("admin");
    expect(errorGroupOf("/admin")).toBe("other");
    expect(errorGroupOf("/api/v1/nothing-here")).toBe("other");
  });
});
