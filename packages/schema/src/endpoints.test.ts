import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "./endpoints.js";
import { errorGroupOf } from "./error-groups.js";

describe("ENDPOINTS", () => {
  it("lists the spec's 18 endpoints and Trove's own (19 upload tokens, 20 privacy, 21 signed URLs, 22 abandon a multipart session, 23 usage, 24 move files, 25 test a source) in order, with unique operation ids", () => {
    expect(ENDPOINTS.map((endpoint) => endpoint.number)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(new Set(ENDPOINTS.map((endpoint) => endpoint.operationId)).size).toBe(25);
  });

  it("puts every endpoint in the error group its path prefix gives", () => {
    for (const endpoint of ENDPOINTS)
      expect(errorGroupOf(endpoint.path), endpoint.operationId).toBe(endpoint.group);
  });

  it("public keys may use endpoints 1, 2, 3 and 5 only (and abandon their multipart sessions, 22); the part upload takes no key", () => {
    const byKey = (key: string) => ENDPOINTS.filter((endpoint) => endpoint.key === key).map((e) => e.number);
    expect(byKey("any")).toEqual([1, 2, 3, 5, 22]);
    expect(byKey("none")).toEqual([4]);
    expect(byKey("private")).toEqual([
      6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 23, 24, 25,
    ]);
  });

  it("has a params schema covering every path parameter", () => {
    for (const endpoint of ENDPOINTS) {
      const names = [...endpoint.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
      if (names.length === 0) continue;
      expect("params" in endpoint && endpoint.params, endpoint.operationId).toBeTruthy();
      const shape = "params" in endpoint ? Object.keys((endpoint.params as { shape: object }).shape) : [];
      expect(shape.sort(), endpoint.operationId).toEqual(names.sort());
    }
  });

  it("answers 201 for create source, 204 without a body for delete source, 200 elsewhere", () => {
    for (const endpoint of ENDPOINTS) {
      const expected = endpoint.number === 14 ? 201 : endpoint.number === 18 ? 204 : 200;
      expect(endpoint.successStatus, endpoint.operationId).toBe(expected);
      expect("response" in endpoint, endpoint.operationId).toBe(expected !== 204);
    }
  });
});
