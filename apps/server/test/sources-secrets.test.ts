/**
 * Secrets of sources never leave in plaintext: sources of every type are created with distinctive
 * secrets, every endpoint and error path is exercised (with the secrets in the request bodies),
 * and then every response body and header, the captured log (trace level) and a raw dump of the
 * sources table are searched for the plaintext: zero hits. Positive controls show the search
 * would find them.
 */
import { SOURCE_SECRET_FIELDS, sourceResponseSchema } from "@trove/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSealed } from "../src/crypto/secret-box.js";
import { REDACTED } from "../src/logging/index.js";
import { openConfiguration } from "../src/sources/index.js";
import {
  randomTag,
  rawRows,
  type SourcesApi,
  secretsOf,
  sourcesApi,
  sourcesTableDump,
  TYPES,
  uniqueName,
  validConfiguration,
} from "./sources-fixtures.js";
import { captureLogs, createTestApp, type TestApp } from "./support/index.js";

let t: TestApp;
let api: SourcesApi;
const logs = captureLogs();
/** Every plaintext secret sent in any request of this file. */
const secrets: string[] = [];

function track(configuration: Record<string, unknown>): Record<string, unknown> {
  secrets.push(...secretsOf(configuration));
  return configuration;
}

function hits(text: string): string[] {
  return secrets.filter((secret) => text.includes(secret) || text.includes(secret.slice(-12)));
}

beforeAll(async () => {
  t = await createTestApp({ logger: { stream: logs.stream, level: "trace" } });
  api = sourcesApi(t);
});
afterAll(async () => {
  await t?.close();
});

describe("source secrets", () => {
  const created: Array<{ id: string; type: string; configuration: Record<string, unknown> }> = [];

  it("exercises every endpoint and error path with distinctive secrets", async () => {
    for (const type of TYPES) {
      const configuration = track(validConfiguration(type));
      const name = uniqueName(type);
      const res = await api.create({ name, type, configuration });
      expect(res.statusCode).toBe(201);
      const data = sourceResponseSchema.parse(res.json()).data;
      created.push({ id: data.id, type, configuration });

      // Duplicate name (409), invalid configuration (400), masked secret on create (400).
      expect((await api.create({ name, type, configuration })).statusCode).toBe(409);
      const invalid = { ...track(validConfiguration(type)), unexpected: "x" };
      expect((await api.create({ name: uniqueName(), type, configuration: invalid })).statusCode).toBe(400);
      expect(
        (await api.create({ name: "bad name", type, configuration: track(validConfiguration(type)) }))
          .statusCode,
      ).toBe(400);
      expect(
        (
          await api.create({
            name: uniqueName(),
            type: "nope",
            configuration: track(validConfiguration(type)),
          })
        ).statusCode,
      ).toBe(400);
      // Malformed JSON that contains a secret (a JSON parser's message may quote the input).
      const [first] = secretsOf(track(validConfiguration(type)));
      if (first) {
        expect((await api.create(`{"configuration": {"secret_key": "${first}"`)).statusCode).toBe(400);
      }

      expect((await api.get(data.id)).statusCode).toBe(200);
      expect((await api.list({ search: name })).statusCode).toBe(200);
      expect((await api.list({ type, limit: 100 })).statusCode).toBe(200);
      // PATCH: unrelated field, masked echo, invalid merge carrying a secret, other workspace.
      expect((await api.patch(data.id, { configuration: { ...data.configuration } })).statusCode).toBe(200);
      const newSecrets = track(validConfiguration(type));
      expect(
        (await api.patch(data.id, { configuration: { ...newSecrets, not_a_field: 1 } })).statusCode,
      ).toBe(400);
      expect((await api.patch(data.id, { configuration: newSecrets }, t.keys.private2)).statusCode).toBe(404);
      const patched = await api.patch(data.id, { configuration: newSecrets });
      expect(patched.statusCode).toBe(200);
      created[created.length - 1] = { id: data.id, type, configuration: newSecrets };
    }

    // Auth failures with secrets in the body.
    const body = JSON.stringify({
      name: uniqueName(),
      type: "s3",
      configuration: track(validConfiguration("s3")),
    });
    for (const headers of [{}, { "x-api-key": t.keys.public }, { "x-api-key": "trove_sk_bad" }]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/sources",
        headers: { ...headers, "content-type": "application/json" },
        payload: body,
      });
      api.responses.push(res);
      expect([401, 403]).toContain(res.statusCode);
    }

    // Delete one, so the delete path is covered too.
    const last = created.pop();
    if (last) expect((await api.remove(last.id)).statusCode).toBe(204);
    expect(secrets.length).toBeGreaterThanOrEqual(20);
  });

  it("no response body or header contains a plaintext secret", () => {
    expect(api.responses.length).toBeGreaterThan(40);
    for (const res of api.responses) {
      expect(hits(res.body)).toEqual([]);
      expect(hits(JSON.stringify(res.headers))).toEqual([]);
    }
  });

  it("no log line contains a plaintext secret (request bodies are not logged)", () => {
    const text = logs.text();
    expect(text.length).toBeGreaterThan(1000);
    expect(logs.lines().some((line) => line.msg === "request rejected")).toBe(true);
    expect(hits(text)).toEqual([]);
  });

  it("the sources table holds ciphertext only: no plaintext, each secret field sealed", async () => {
    const dump = await sourcesTableDump(t);
    expect(dump.length).toBeGreaterThan(100);
    expect(hits(dump)).toEqual([]);
    const rows = await rawRows<{ type: string; configuration: Record<string, unknown> | string }>(
      t,
      "SELECT type::text AS type, configuration FROM sources",
    );
    let sealed = 0;
    for (const row of rows) {
      const configuration =
        typeof row.configuration === "string" ? JSON.parse(row.configuration) : row.configuration;
      for (const field of SOURCE_SECRET_FIELDS) {
        if (field in configuration) {
          expect(isSealed(configuration[field]), `${row.type}.${field}`).toBe(true);
          sealed++;
        }
      }
    }
    expect(sealed).toBeGreaterThanOrEqual(3);
  });

  it("positive control: the stored ciphertext opens to the secrets that were sent", async () => {
    for (const source of created) {
      const row = await t.app.db.source.findUniqueOrThrow({ where: { id: source.id } });
      const opened = openConfiguration(t.config.secretKey, row.configuration);
      expect(opened).toEqual(source.configuration);
      expect(hits(JSON.stringify(opened)).length).toBeGreaterThan(0);
    }
    // A different server key cannot open them.
    const row = await t.app.db.source.findUniqueOrThrow({ where: { id: created[0]?.id ?? "" } });
    expect(() => openConfiguration(Buffer.alloc(32, 7), row.configuration)).toThrow();
  });

  it("logging redacts secret fields should a body ever be logged", () => {
    const secret = `SECRET-log-probe-${randomTag()}`;
    t.app.log.info({ body: { configuration: { secret_key: secret, access_key: secret } } }, "probe one");
    t.app.log.info({ req: { body: { configuration: { connection_string: secret } } } }, "probe two");
    t.app.log.info({ configuration: { service_account_json: secret } }, "probe three");
    const text = logs.text();
    expect(text).not.toContain(secret);
    expect(logs.lines().filter((line) => String(line.msg).startsWith("probe ")).length).toBe(3);
    expect(text).toContain(REDACTED);
  });
});
