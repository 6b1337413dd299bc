/**
 * PATCH /api/v1/sources/:sourceId (endpoint 17): merge of configuration fields, masked secrets
 * sent back, new secrets, null removes a field, merged validation, name rules and 409, updated_at.
 * Renames, former names and is_active: sources-rename.test.ts.
 */
import { randomUUID } from "node:crypto";
import { MASKED_SECRET, type Source, type SourceType, sourceResponseSchema } from "@trove/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSealed } from "../src/crypto/secret-box.js";
import { readSourceConfiguration } from "../src/sources/index.js";
import {
  DUPLICATE,
  NOT_FOUND,
  type SourcesApi,
  sourcesApi,
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

async function create(type: SourceType, configuration = validConfiguration(type), name = uniqueName(type)) {
  const res = await api.create({ name, type, configuration });
  expect(res.statusCode, res.body).toBe(201);
  return { source: sourceResponseSchema.parse(res.json()).data, configuration };
}

async function patchOk(id: string, payload: unknown): Promise<Source> {
  const res = await api.patch(id, payload);
  expect(res.statusCode, res.body).toBe(200);
  return sourceResponseSchema.parse(res.json()).data;
}

/** The decrypted configuration, through the service. */
const plaintext = (id: string) =>
  readSourceConfiguration({ db: t.app.db, secretKey: t.config.secretKey, workspaceId: t.workspace.id }, id);

/** The configuration column as stored (secret fields hold ciphertext). */
async function stored(id: string): Promise<Record<string, unknown>> {
  const row = await t.app.db.source.findUniqueOrThrow({ where: { id } });
  return row.configuration as Record<string, unknown>;
}

describe("PATCH configuration merge", () => {
  it("changing only region keeps both s3 secrets: same plaintext and the very same ciphertext", async () => {
    const { source, configuration } = await create("s3");
    const before = await stored(source.id);
    const updated = await patchOk(source.id, { configuration: { region: "ap-south-1" } });
    expect(updated.configuration).toEqual({
      access_key: MASKED_SECRET,
      secret_key: MASKED_SECRET,
      region: "ap-south-1",
      bucket: "media-bucket",
    });
    const after = await stored(source.id);
    expect(after.access_key).toBe(before.access_key);
    expect(after.secret_key).toBe(before.secret_key);
    expect(await plaintext(source.id)).toEqual({ ...configuration, region: "ap-south-1" });
  });

  it("a masked value sent back (any run of asterisks) keeps the stored secret", async () => {
    for (const type of ["s3", "azure", "google_cloud"] as const) {
      const { source, configuration } = await create(type);
      const before = await stored(source.id);
      const echoed = { ...source.configuration } as Record<string, unknown>;
      const updated = await patchOk(source.id, { configuration: echoed });
      expect(updated.configuration).toEqual(source.configuration);
      expect(await plaintext(source.id)).toEqual(configuration);
      expect(await stored(source.id)).toEqual(before);
    }
    const { source, configuration } = await create("s3");
    await patchOk(source.id, {
      configuration: { access_key: "*", secret_key: "*".repeat(40), bucket: "other" },
    });
    expect(await plaintext(source.id)).toEqual({ ...configuration, bucket: "other" });
  });

  it("a new secret replaces the stored one (re-encrypted), the other secret is kept", async () => {
    const { source, configuration } = await create("s3");
    const before = await stored(source.id);
    const updated = await patchOk(source.id, { configuration: { secret_key: "NEW-SECRET-VALUE" } });
    expect(updated.configuration).toMatchObject({ secret_key: MASKED_SECRET });
    const after = await stored(source.id);
    expect(after.secret_key).not.toBe(before.secret_key);
    expect(isSealed(after.secret_key)).toBe(true);
    expect(after.access_key).toBe(before.access_key);
    expect(await plaintext(source.id)).toEqual({ ...configuration, secret_key: "NEW-SECRET-VALUE" });
  });

  it("replaces azure and google_cloud secrets too", async () => {
    const azure = await create("azure");
    await patchOk(azure.source.id, { configuration: { connection_string: "AccountName=new" } });
    expect(await plaintext(azure.source.id)).toEqual({
      ...azure.configuration,
      connection_string: "AccountName=new",
    });
    const gcs = await create("google_cloud");
    await patchOk(gcs.source.id, {
      configuration: { service_account_json: '{"new":true}', bucket_name: "b2" },
    });
    expect(await plaintext(gcs.source.id)).toEqual({
      service_account_json: '{"new":true}',
      bucket_name: "b2",
    });
  });

  it("null removes an optional field (canonical_header, access_key)", async () => {
    const image = await create("image_source");
    const updated = await patchOk(image.source.id, { configuration: { canonical_header: null } });
    expect(updated.configuration).toEqual({
      base_url: "https://images.example.com/origin",
      forward_header: true,
    });
    const s3 = await create("s3");
    const noKeys = await patchOk(s3.source.id, { configuration: { access_key: null, secret_key: null } });
    expect(noKeys.configuration).toEqual({ region: "eu-west-1", bucket: "media-bucket" });
    expect(await stored(s3.source.id)).toEqual({ region: "eu-west-1", bucket: "media-bucket" });
  });

  it("an invalid merged configuration is 400 Configuration is invalid, and nothing changes", async () => {
    const cases: Array<[SourceType, Record<string, unknown>]> = [
      ["s3", { region: "" }],
      ["s3", { bucket: null }],
      ["s3", { bucket: 7 }],
      ["s3", { unknown_field: "x" }],
      ["s3", { connection_string: "belongs to azure" }],
      ["azure", { connection_string: null }],
      ["azure", { container_name: "" }],
      ["google_cloud", { bucket_name: null }],
      ["image_source", { base_url: "https://images.example.com/" }],
      ["image_source", { base_url: null }],
      ["image_source", { forward_header: "yes" }],
    ];
    for (const [type, patch] of cases) {
      const { source } = await create(type);
      const before = await stored(source.id);
      const res = await api.patch(source.id, { name: source.name, configuration: patch });
      expect(res.statusCode, `${type} ${JSON.stringify(patch)}`).toBe(400);
      expect(res.json()).toEqual(VALIDATION_CONFIGURATION);
      const after = await api.get(source.id);
      expect(after.json().data).toEqual(source);
      expect(await stored(source.id)).toEqual(before);
    }
  });

  it("configuration that is not an object is 400 Configuration is invalid", async () => {
    const { source } = await create("s3");
    for (const configuration of [null, "x", [], 5]) {
      const res = await api.patch(source.id, { configuration });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(VALIDATION_CONFIGURATION);
    }
  });

  it("a masked secret where none is stored is 400 (nothing to keep)", async () => {
    const { source } = await create("s3", { region: "eu", bucket: "b" });
    const res = await api.patch(source.id, { configuration: { access_key: MASKED_SECRET } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(VALIDATION_CONFIGURATION);
  });

  it("concurrent PATCHes of different fields both land (the row is locked while merging)", async () => {
    const { source } = await create("s3");
    const results = await Promise.all([
      api.patch(source.id, { configuration: { region: "r-1" } }),
      api.patch(source.id, { configuration: { bucket: "b-2" } }),
      api.patch(source.id, { configuration: { secret_key: "S-3" } }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await plaintext(source.id)).toMatchObject({ region: "r-1", bucket: "b-2", secret_key: "S-3" });
  });

  it("type cannot be changed: a type in the body is ignored like any unknown field", async () => {
    const { source } = await create("s3");
    const updated = await patchOk(source.id, { type: "azure", configuration: { region: "x" } });
    expect(updated.type).toBe("s3");
  });
});

describe("PATCH name", () => {
  it("renaming to an existing name is 409; to its own name is fine", async () => {
    const a = await create("s3");
    const b = await create("s3");
    const res = await api.patch(b.source.id, { name: a.source.name });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(DUPLICATE);
    expect((await api.get(b.source.id)).json().data.name).toBe(b.source.name);
    expect((await patchOk(b.source.id, { name: b.source.name })).name).toBe(b.source.name);
  });

  it("a 409 rename rolls back the configuration change sent with it", async () => {
    const a = await create("s3");
    const b = await create("s3");
    const res = await api.patch(b.source.id, { name: a.source.name, configuration: { region: "changed" } });
    expect(res.statusCode).toBe(409);
    expect((await plaintext(b.source.id)).region).toBe("eu-west-1");
  });

  it("the name rules apply: 256 characters, spaces, unicode are 400; its own 255-character name is fine", async () => {
    const long = `${"y".repeat(247)}${randomUUID().slice(0, 8)}`;
    const { source } = await create("s3", validConfiguration("s3"), long);
    for (const name of ["x".repeat(256), "with space", "ünï", "", "a.b"]) {
      const res = await api.patch(source.id, { name });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error).toBe("Validation failed");
      expect(res.json().message).toMatch(/^name: /);
    }
    expect((await patchOk(source.id, { name: long })).name).toBe(long);
  });
});

describe("PATCH updated_at and edge cases", () => {
  it("updated_at is null until the first update, then set, and moves on every update", async () => {
    const { source } = await create("image_source");
    expect(source.updated_at).toBeNull();
    const first = await patchOk(source.id, { configuration: { forward_header: false } });
    expect(first.updated_at).not.toBeNull();
    expect(Date.parse(first.updated_at as string)).toBeGreaterThan(Date.parse(source.created_at));
    expect(first.created_at).toBe(source.created_at);
    const second = await patchOk(source.id, { configuration: { forward_header: true } });
    expect(Date.parse(second.updated_at as string)).toBeGreaterThan(Date.parse(first.updated_at as string));
    const same = await patchOk(source.id, { name: second.name });
    expect(Date.parse(same.updated_at as string)).toBeGreaterThan(Date.parse(second.updated_at as string));
    expect((await api.get(source.id)).json().data.updated_at).toBe(same.updated_at);
  });

  it("an empty body {} is 200 with the source unchanged, updated_at untouched", async () => {
    const { source } = await create("s3");
    expect(await patchOk(source.id, {})).toEqual(source);
    const patched = await patchOk(source.id, { configuration: { region: "x" } });
    expect(await patchOk(source.id, {})).toEqual(patched);
  });

  it("a body that is not a JSON object, or malformed JSON, is 400", async () => {
    const { source } = await create("s3");
    for (const [payload, message] of [
      ["[]", "Request body must be a JSON object"],
      ["null", "Request body must be a JSON object"],
      ['"name"', "Request body must be a JSON object"],
      ['{"name": ', "Malformed JSON in request body"],
    ] as const) {
      const res = await api.patch(source.id, payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toEqual({ error: "Validation failed", message });
    }
  });

  it("unknown and malformed ids are 404, even with a valid body", async () => {
    for (const id of [randomUUID(), "not-a-uuid"]) {
      const res = await api.patch(id, { name: uniqueName() });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
  });
});
