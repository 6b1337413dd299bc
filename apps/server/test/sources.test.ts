/**
 * Sources, endpoints 14 (create), 16 (get) and 18 (delete), plus auth and workspace isolation for
 * all five. List: sources-list.test.ts; PATCH: sources-update.test.ts; secrets: sources-secrets.test.ts.
 */
import { randomUUID } from "node:crypto";
import { MASKED_SECRET, sourceResponseSchema } from "@trove/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DUPLICATE,
  FORBIDDEN,
  NOT_FOUND,
  type SourcesApi,
  sourcesApi,
  TYPES,
  UNAUTHORIZED,
  uniqueName,
  VALIDATION_CONFIGURATION,
  validConfiguration,
} from "./sources-fixtures.js";
import { createTestApp, type TestApp } from "./support/index.js";

let t: TestApp;
let api: SourcesApi;

beforeAll(async () => {
  t = await createTestApp();
  api = sourcesApi(t);
});
afterAll(async () => {
  await t?.close();
});

async function createOk(
  type = TYPES[0] ?? "s3",
  configuration = validConfiguration(type),
  name = uniqueName(),
) {
  const res = await api.create({ name, type, configuration });
  expect(res.statusCode, res.body).toBe(201);
  return sourceResponseSchema.parse(res.json()).data;
}

it("runs on the database the environment asks for (PGlite, or PostgreSQL with TROVE_TEST_DATABASE_URL)", () => {
  expect(t.app.dbKind).toBe(process.env.TROVE_TEST_DATABASE_URL ? "postgres" : "pglite");
});

describe("POST /api/v1/sources (create)", () => {
  it.each(TYPES)("creates a %s source: 201, secrets masked, updated_at null", async (type) => {
    const name = uniqueName(type);
    const configuration = validConfiguration(type);
    const res = await api.create({ name, type, configuration });
    expect(res.statusCode).toBe(201);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    const body = sourceResponseSchema.parse(res.json());
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({ name, type, is_active: true, updated_at: null });
    expect(Date.parse(body.data.created_at)).toBeGreaterThan(Date.now() - 60_000);
    const expected: Record<string, unknown> = { ...configuration };
    for (const field of ["access_key", "secret_key", "connection_string", "service_account_json"]) {
      if (field in expected) expected[field] = MASKED_SECRET;
    }
    expect(body.data.configuration).toEqual(expected);
  });

  it("accepts s3 without credentials (region and bucket are the required fields)", async () => {
    const data = await createOk("s3", { region: "us-east-1", bucket: "public-bucket" });
    expect(data.configuration).toEqual({ region: "us-east-1", bucket: "public-bucket" });
  });

  it("accepts image_source with only base_url, and http as well as https", async () => {
    const data = await createOk("image_source", { base_url: "http://127.0.0.1:8080/images" });
    expect(data.configuration).toEqual({ base_url: "http://127.0.0.1:8080/images" });
  });

  const invalidConfigurations: Array<[string, string, unknown]> = [
    ["s3", "missing region", { access_key: "a", secret_key: "b", bucket: "x" }],
    ["s3", "missing bucket", { region: "eu", access_key: "a", secret_key: "b" }],
    ["s3", "empty region", { region: "", bucket: "x" }],
    ["s3", "numeric bucket", { region: "eu", bucket: 123 }],
    ["s3", "camelCase key (unknown field)", { region: "eu", bucket: "x", secretKey: "b" }],
    ["s3", "empty access_key", { region: "eu", bucket: "x", access_key: "" }],
    ["s3", "azure configuration", { connection_string: "c", container_name: "m" }],
    ["s3", "empty object", {}],
    ["azure", "missing connection_string", { container_name: "media" }],
    ["azure", "missing container_name", { connection_string: "c" }],
    ["azure", "containerName typo", { connection_string: "c", containerName: "m" }],
    ["azure", "numeric connection_string", { connection_string: 42, container_name: "m" }],
    ["google_cloud", "missing service_account_json", { bucket_name: "b" }],
    ["google_cloud", "missing bucket_name", { service_account_json: "{}" }],
    ["google_cloud", "bucket instead of bucket_name", { service_account_json: "{}", bucket: "b" }],
    [
      "google_cloud",
      "service_account_json as an object",
      { service_account_json: { a: 1 }, bucket_name: "b" },
    ],
    ["image_source", "missing base_url", { canonical_header: "X" }],
    ["image_source", "base_url with a trailing slash", { base_url: "https://images.example.com/" }],
    ["image_source", "base_url path with a trailing slash", { base_url: "https://images.example.com/a/" }],
    ["image_source", "base_url not a URL", { base_url: "images.example.com" }],
    ["image_source", "base_url ftp", { base_url: "ftp://images.example.com" }],
    ["image_source", "forward_header as a string", { base_url: "https://x.example", forward_header: "true" }],
    ["image_source", "canonical_header as a number", { base_url: "https://x.example", canonical_header: 5 }],
    ["image_source", "canonical_header null", { base_url: "https://x.example", canonical_header: null }],
    ["s3", "configuration is an array", []],
    ["s3", "configuration is a string", "region=eu"],
    ["s3", "configuration is null", null],
  ];
  it.each(invalidConfigurations)(
    "%s with %s: 400 Configuration is invalid",
    async (type, _label, configuration) => {
      const name = uniqueName();
      const res = await api.create({ name, type, configuration });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(VALIDATION_CONFIGURATION);
      const list = await api.list({ search: name });
      expect(list.json().meta.total).toBe(0);
    },
  );

  it("rejects a masked value sent as a secret on create (nothing to keep)", async () => {
    for (const [type, field] of [
      ["s3", "secret_key"],
      ["s3", "access_key"],
      ["azure", "connection_string"],
      ["google_cloud", "service_account_json"],
    ] as const) {
      const configuration = { ...validConfiguration(type), [field]: "********" };
      const res = await api.create({ name: uniqueName(), type, configuration });
      expect(res.statusCode, `${type}.${field}`).toBe(400);
      expect(res.json()).toEqual(VALIDATION_CONFIGURATION);
    }
  });

  it("applies the name rules: 1 to 255 of letters, digits, underscore, hyphen", async () => {
    const ok255 = "n".repeat(250) + randomUUID().slice(0, 5);
    expect(ok255).toHaveLength(255);
    expect((await createOk("s3", validConfiguration("s3"), ok255)).name).toBe(ok255);
    expect((await createOk("s3", validConfiguration("s3"), "A_b-9")).name).toBe("A_b-9");
    for (const name of [
      "x".repeat(256),
      "",
      "has space",
      "ünïcode",
      "名前",
      "a.b",
      "a/b",
      " lead",
      "tab\t",
      "emoji😀",
    ]) {
      const res = await api.create({ name, type: "s3", configuration: validConfiguration("s3") });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      const body = res.json();
      expect(body.error).toBe("Validation failed");
      expect(body.message).toMatch(/^name: /);
      expect(Object.keys(body).sort()).toEqual(["error", "message"]);
    }
  });

  it("other invalid payloads: 400 Validation failed with a message naming the problem", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ type: "s3", configuration: validConfiguration("s3") }, /^name: /],
      [{ name: 42, type: "s3", configuration: validConfiguration("s3") }, /^name: /],
      [{ name: uniqueName(), configuration: validConfiguration("s3") }, /^type: /],
      [{ name: uniqueName(), type: "ftp", configuration: validConfiguration("s3") }, /^type: /],
      [{ name: uniqueName(), type: "S3", configuration: validConfiguration("s3") }, /^type: /],
      [{ name: uniqueName(), type: "s3" }, /^configuration: /],
      [{}, /name: .*type: .*configuration: /],
      [[], /^Request body must be a JSON object$/],
      ["just a string", /^Request body must be a JSON object$/],
      [null, /^Request body must be a JSON object$/],
      [42, /^Request body must be a JSON object$/],
      ['{"name": ', /^Malformed JSON in request body$/],
    ];
    for (const [payload, message] of cases) {
      const raw = typeof payload === "string" && payload.startsWith("{") ? payload : JSON.stringify(payload);
      const res = await api.create(raw);
      expect(res.statusCode, raw).toBe(400);
      const body = res.json();
      expect(Object.keys(body).sort(), raw).toEqual(["error", "message"]);
      expect(body.error).toBe("Validation failed");
      expect(body.message, raw).toMatch(message);
    }
  });

  it("reports name and type problems before checking the configuration", async () => {
    const res = await api.create({ name: "bad name", type: "s3", configuration: { nope: true } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^name: /);
  });

  it("a body without a JSON content type: text is 400, other types 415", async () => {
    const text = await t.app.inject({
      method: "POST",
      url: "/api/v1/sources",
      headers: { "x-api-key": t.keys.private, "content-type": "text/plain" },
      payload: "name=x",
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toEqual({
      error: "Validation failed",
      message: "Request body must be a JSON object",
    });
    const form = await t.app.inject({
      method: "POST",
      url: "/api/v1/sources",
      headers: { "x-api-key": t.keys.private, "content-type": "application/x-www-form-urlencoded" },
      payload: "name=x",
    });
    expect(form.statusCode).toBe(415);
    const none = await t.app.inject({
      method: "POST",
      url: "/api/v1/sources",
      headers: { "x-api-key": t.keys.private },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({
      error: "Validation failed",
      message: "Request body must be a JSON object",
    });
  });

  it("ignores unknown top-level fields (is_active, id) as the schema strips them", async () => {
    const res = await api.create({
      name: uniqueName(),
      type: "image_source",
      configuration: validConfiguration("image_source"),
      is_active: false,
      id: "00000000-0000-4000-8000-000000000000",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.is_active).toBe(true);
    expect(res.json().data.id).not.toBe("00000000-0000-4000-8000-000000000000");
  });

  it("a duplicate name in the workspace is 409; the same name in another workspace is fine", async () => {
    const name = uniqueName("dup");
    await createOk("s3", validConfiguration("s3"), name);
    for (const type of TYPES) {
      const res = await api.create({ name, type, configuration: validConfiguration(type) });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual(DUPLICATE);
    }
    const other = await api.create(
      { name, type: "s3", configuration: validConfiguration("s3") },
      t.keys.private2,
    );
    expect(other.statusCode).toBe(201);
  });

  it("names are case-sensitive: Name and name are different sources", async () => {
    const base = uniqueName("case");
    await createOk("s3", validConfiguration("s3"), base.toLowerCase());
    const upper = await api.create({
      name: base.toUpperCase(),
      type: "s3",
      configuration: validConfiguration("s3"),
    });
    expect(upper.statusCode).toBe(201);
  });

  it("concurrent creates with one name: exactly one wins, the rest are 409 (unique constraint)", async () => {
    const name = uniqueName("race");
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        api.create({ name, type: "s3", configuration: validConfiguration("s3") }),
      ),
    );
    const statuses = results.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const res of results.filter((r) => r.statusCode === 409)) expect(res.json()).toEqual(DUPLICATE);
    const count = await t.app.db.source.count({ where: { workspaceId: t.workspace.id, name } });
    expect(count).toBe(1);
  });
});

describe("GET /api/v1/sources/:sourceId", () => {
  it.each(TYPES)("returns a %s source with secrets masked", async (type) => {
    const created = await createOk(type);
    const res = await api.get(created.id);
    expect(res.statusCode).toBe(200);
    const body = sourceResponseSchema.parse(res.json());
    expect(body).toEqual({ success: true, data: created });
  });

  it("accepts the id in upper case", async () => {
    const created = await createOk("azure");
    const res = await api.get(created.id.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json().data.id).toBe(created.id);
  });

  it("unknown and malformed ids are 404 Source not found", async () => {
    for (const id of [
      randomUUID(),
      "not-a-uuid",
      "123",
      "00000000-0000-0000-0000-00000000000g",
      "%20",
      "'; DROP TABLE sources; --",
    ]) {
      const res = await api.get(encodeURIComponent(id));
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
  });
});

describe("DELETE /api/v1/sources/:sourceId", () => {
  it("deletes: 204 with an empty body and no content type, then 404 on every endpoint", async () => {
    const created = await createOk("google_cloud");
    const res = await api.remove(created.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    expect(res.rawPayload.length).toBe(0);
    expect(res.headers["content-type"]).toBeUndefined();
    expect(await t.app.db.source.findUnique({ where: { id: created.id } })).toBeNull();
    for (const again of [
      await api.get(created.id),
      await api.remove(created.id),
      await api.patch(created.id, { name: "x" }),
    ]) {
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual(NOT_FOUND);
    }
  });

  it("frees the name for reuse", async () => {
    const name = uniqueName("reuse");
    const first = await createOk("s3", validConfiguration("s3"), name);
    expect((await api.remove(first.id)).statusCode).toBe(204);
    const second = await createOk("s3", validConfiguration("s3"), name);
    expect(second.id).not.toBe(first.id);
  });

  it("unknown and malformed ids are 404 Source not found", async () => {
    for (const id of [randomUUID(), "nope"]) {
      const res = await api.remove(id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
  });
});

describe("workspace isolation", () => {
  it("every endpoint answers 404 for another workspace's source id, and changes nothing", async () => {
    const created = await createOk("s3");
    const other = t.keys.private2;
    for (const res of [
      await api.get(created.id, other),
      await api.patch(created.id, { name: uniqueName() }, other),
      await api.patch(created.id, { configuration: { region: "hijacked" } }, other),
      await api.remove(created.id, other),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
    const list = await api.list({ limit: 100 }, other);
    expect(list.json().sources.map((s: { id: string }) => s.id)).not.toContain(created.id);
    const still = await api.get(created.id);
    expect(still.json()).toEqual({ success: true, data: created });
  });
});

describe("authentication", () => {
  const id = "0190a5c4-7b1e-7000-8000-000000000001";
  const calls: Array<[string, string, unknown]> = [
    ["POST", "/api/v1/sources", { name: "x", type: "s3", configuration: { region: "eu", bucket: "b" } }],
    ["GET", "/api/v1/sources", undefined],
    ["GET", `/api/v1/sources/${id}`, undefined],
    ["PATCH", `/api/v1/sources/${id}`, { name: "y" }],
    ["DELETE", `/api/v1/sources/${id}`, undefined],
  ];

  it("no key or a bad key: 401 { error: 'Invalid API key.', message }", async () => {
    for (const [method, url, payload] of calls) {
      for (const headers of [
        {},
        { "x-api-key": "trove_sk_0000000000000000" },
        { authorization: "Bearer nope" },
      ]) {
        const res = await t.app.inject({
          method: method as "GET",
          url,
          headers,
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json()).toEqual(UNAUTHORIZED);
      }
    }
  });

  it("a public key: 403 { error, message }", async () => {
    for (const [method, url, payload] of calls) {
      const res = await t.app.inject({
        method: method as "GET",
        url,
        headers: { "x-api-key": t.keys.public },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
    }
    expect(await t.app.db.source.count({ where: { name: "x" } })).toBe(0);
  });

  it("a private key in Authorization: Bearer works", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/v1/sources",
      headers: { authorization: `Bearer ${t.keys.private}` },
    });
    expect(res.statusCode).toBe(200);
  });
});
