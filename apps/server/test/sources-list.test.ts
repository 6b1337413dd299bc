/** GET /api/v1/sources (endpoint 15): search, type, pagination, limits, order, response shape. */
import { randomUUID } from "node:crypto";
import { listSourcesResponseSchema, type SourceType } from "@trove/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SourcesApi, sourcesApi, validConfiguration } from "./sources-fixtures.js";
import { createTestApp, type TestApp } from "./support/index.js";

let t: TestApp;
let api: SourcesApi;

/** name -> type, created in this order (so the list shows them reversed). */
const SEEDED: Array<[string, SourceType]> = [
  ["Alpha-Bucket", "s3"],
  ["alpha_cdn", "image_source"],
  ["ALPHAxcdn", "image_source"],
  ["beta", "azure"],
  ["gamma_gcs", "google_cloud"],
  ["delta-100", "s3"],
];
const FILLER = 19; // 25 sources in all

beforeAll(async () => {
  t = await createTestApp();
  api = sourcesApi(t);
  for (const [name, type] of SEEDED) {
    const res = await api.create({ name, type, configuration: validConfiguration(type) });
    expect(res.statusCode).toBe(201);
  }
  for (let i = 0; i < FILLER; i++) {
    const type = (["s3", "azure", "google_cloud", "image_source"] as const)[i % 4] as SourceType;
    const res = await api.create({
      name: `filler-${String(i).padStart(2, "0")}`,
      type,
      configuration: validConfiguration(type),
    });
    expect(res.statusCode).toBe(201);
  }
  // A source in the other workspace never shows up here.
  await api.create(
    { name: "alpha-other-workspace", type: "s3", configuration: validConfiguration("s3") },
    t.keys.private2,
  );
});
afterAll(async () => {
  await t?.close();
});

async function list(query: Record<string, string | number> = {}) {
  const res = await api.list(query);
  expect(res.statusCode, res.body).toBe(200);
  return listSourcesResponseSchema.parse(res.json());
}

describe("GET /api/v1/sources", () => {
  it("defaults to page 1, limit 10, newest first, with total and hasMore", async () => {
    const body = await list();
    expect(body.meta).toEqual({ page: 1, limit: 10, total: 25, hasMore: true });
    expect(body.sources).toHaveLength(10);
    expect(body.sources[0]?.name).toBe("filler-18");
    const created = body.sources.map((s) => Date.parse(s.created_at));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
  });

  it("pages through every source once, in order, and hasMore turns false on the last page", async () => {
    const page1 = await list({ page: 1, limit: 10 });
    const page2 = await list({ page: 2, limit: 10 });
    const page3 = await list({ page: 3, limit: 10 });
    const page4 = await list({ page: 4, limit: 10 });
    expect([page1, page2, page3, page4].map((p) => p.meta.hasMore)).toEqual([true, true, false, false]);
    expect(page3.sources).toHaveLength(5);
    expect(page4.sources).toEqual([]);
    expect(page4.meta).toEqual({ page: 4, limit: 10, total: 25, hasMore: false });
    const names = [...page1.sources, ...page2.sources, ...page3.sources].map((s) => s.name);
    expect(new Set(names).size).toBe(25);
    const expected = [
      ...SEEDED.map(([name]) => name),
      ...Array.from({ length: FILLER }, (_, i) => `filler-${String(i).padStart(2, "0")}`),
    ];
    expect(names).toEqual(expected.reverse());
    const all = await list({ limit: 25 });
    expect(all.meta.hasMore).toBe(false);
  });

  it("limit bounds: 1 and 100 are fine; 0, 101, -1, 1.5, abc and page 0 are 400", async () => {
    expect((await list({ limit: 1 })).sources).toHaveLength(1);
    expect((await list({ limit: 100 })).meta).toEqual({ page: 1, limit: 100, total: 25, hasMore: false });
    const invalid: Array<Record<string, string | number>> = [
      { limit: 0 },
      { limit: 101 },
      { limit: -1 },
      { limit: "1.5" },
      { limit: "abc" },
      { page: 0 },
      { page: -2 },
      { page: "x" },
    ];
    for (const query of invalid) {
      const res = await api.list(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      const body = res.json();
      expect(body.error).toBe("Validation failed");
      expect(body.message).toMatch(/^(limit|page): /);
    }
  });

  it("search: partial and case-insensitive on the name", async () => {
    const names = async (search: string) =>
      (await list({ search, limit: 100 })).sources.map((s) => s.name).sort();
    expect(await names("alpha")).toEqual(["ALPHAxcdn", "Alpha-Bucket", "alpha_cdn"]);
    expect(await names("ALPHA")).toEqual(["ALPHAxcdn", "Alpha-Bucket", "alpha_cdn"]);
    expect(await names("cdn")).toEqual(["ALPHAxcdn", "alpha_cdn"]);
    expect(await names("ETA")).toEqual(["beta"]);
    expect(await names("nothing-like-this")).toEqual([]);
    const meta = (await list({ search: "filler", limit: 5 })).meta;
    expect(meta).toEqual({ page: 1, limit: 5, total: 19, hasMore: true });
  });

  it("search takes % and _ literally (no LIKE wildcards)", async () => {
    const names = async (search: string) =>
      (await list({ search, limit: 100 })).sources.map((s) => s.name).sort();
    expect(await names("alpha_cdn")).toEqual(["alpha_cdn"]); // not ALPHAxcdn
    expect(await names("_")).toEqual(["alpha_cdn", "gamma_gcs"]);
    expect(await names("%")).toEqual([]);
    expect(await names("a%c")).toEqual([]);
    expect(await names("\\")).toEqual([]);
    expect(await names("100")).toEqual(["delta-100"]);
  });

  it("an empty search is no filter", async () => {
    expect((await list({ search: "" })).meta.total).toBe(25);
  });

  it("type filters, alone and with search; an unknown type is 400", async () => {
    const azure = await list({ type: "azure", limit: 100 });
    expect(azure.sources.every((s) => s.type === "azure")).toBe(true);
    expect(azure.meta.total).toBe(1 + 5);
    const images = await list({ type: "image_source", search: "alpha" });
    expect(images.sources.map((s) => s.name).sort()).toEqual(["ALPHAxcdn", "alpha_cdn"]);
    expect(images.meta.total).toBe(2);
    for (const type of ["ftp", "S3", ""]) {
      const res = await api.list({ type });
      expect(res.statusCode, type).toBe(400);
      expect(res.json().message).toMatch(/^type: /);
    }
  });

  it("rows are masked sources (the response schema accepts only masked secrets)", async () => {
    const body = await list({ limit: 100 });
    for (const source of body.sources) {
      const configuration = source.configuration as Record<string, unknown>;
      for (const field of ["access_key", "secret_key", "connection_string", "service_account_json"]) {
        if (field in configuration) expect(configuration[field]).toMatch(/^\*+$/);
      }
    }
  });

  it("sources created in the same millisecond keep a stable order (id breaks the tie)", async () => {
    const other = await createTestApp();
    try {
      const at = new Date("2030-01-01T00:00:00.000Z");
      const ids = Array.from({ length: 7 }, () => randomUUID());
      for (const [i, id] of ids.entries()) {
        await other.app.db.source.create({
          data: {
            id,
            workspaceId: other.workspace.id,
            name: `tie-${i}`,
            type: "image_source",
            configuration: { base_url: "https://tie.example" },
            createdAt: at,
          },
        });
      }
      const otherApi = sourcesApi(other);
      const seen: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const res = await otherApi.list({ page, limit: 2 });
        seen.push(...listSourcesResponseSchema.parse(res.json()).sources.map((s) => s.id));
      }
      expect(seen).toEqual([...ids].sort().reverse());
    } finally {
      await other.close();
    }
  });

  it("lists only the caller's workspace", async () => {
    const body = await list({ search: "other-workspace" });
    expect(body.meta.total).toBe(0);
    const res = await api.list({ search: "alpha" }, t.keys.private2);
    expect(res.json().sources.map((s: { name: string }) => s.name)).toEqual(["alpha-other-workspace"]);
  });
});
