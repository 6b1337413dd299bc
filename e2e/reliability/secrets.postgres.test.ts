/**
 * Reliability 3: source secrets never appear in plaintext anywhere a user or operator can look.
 * Sources of every type carry distinctive secrets; every source endpoint and error path runs;
 * then every response body, the server's debug log, /openapi.json and a pg_dump of the database
 * are searched for each secret (plain, base64, hex and URL-encoded): zero hits.
 *
 * Needs PostgreSQL (PGlite's data dir cannot be read while the server runs): TROVE_TEST_DATABASE_URL
 * names an admin connection (CREATE DATABASE); `psql` and `pg_dump` on PATH.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportFigures } from "../support/reliability-profile";

const adminUrl = process.env.TROVE_TEST_DATABASE_URL;
const tag = randomBytes(6).toString("hex");
const secret = (label: string) => `ZZSECRET-${label}-${tag}-${randomBytes(8).toString("hex")}`;

const SECRETS = {
  s3Access: secret("s3access"),
  s3Secret: secret("s3secret"),
  s3SecretRotated: secret("s3rotated"),
  azure: `DefaultEndpointsProtocol=https;AccountName=trove;AccountKey=${secret("azure")};EndpointSuffix=core.windows.net`,
  google: JSON.stringify({
    type: "service_account",
    private_key: `-----BEGIN PRIVATE KEY-----\n${secret("gcp")}\n-----END PRIVATE KEY-----\n`,
  }),
  rejected: secret("rejected"),
  rejectedUpdate: secret("rejectedupdate"),
} as const;

/** The forms a leaked secret could take. */
function needles(value: string): string[] {
  const forms = [
    value,
    Buffer.from(value).toString("base64"),
    Buffer.from(value).toString("hex"),
    encodeURIComponent(value),
    JSON.stringify(value).slice(1, -1),
  ];
  // The distinctive core of composite secrets (the account key inside a connection string, the key inside JSON).
  for (const match of value.matchAll(/ZZSECRET-[a-z]+-[0-9a-f]+-[0-9a-f]+/g)) forms.push(match[0]);
  return [...new Set(forms)];
}

describe.runIf(adminUrl)("secrets never appear in plaintext (PostgreSQL)", () => {
  let server: ServerProcess;
  let databaseUrl: string;
  const dbName = `trove_rel_secrets_${tag}`;
  const responses: { label: string; status: number; text: string }[] = [];

  const call = async (label: string, method: string, path: string, body?: unknown, key?: string | null) => {
    const headers: Record<string, string> = {};
    const k = key === undefined ? server.keys.private : key;
    if (k) headers["x-api-key"] = k;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    responses.push({
      label,
      status: response.status,
      text: `${[...response.headers].map(([h, v]) => `${h}: ${v}`).join("\n")}\n${text}`,
    });
    return {
      status: response.status,
      json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    };
  };

  beforeAll(async () => {
    execFileSync("psql", [adminUrl!, "-v", "ON_ERROR_STOP=1", "-qc", `CREATE DATABASE "${dbName}"`]);
    const url = new URL(adminUrl!);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
    server = await startServerProcess({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "debug",
      TROVE_SEED_DEV: "true",
    });
  });

  afterAll(async () => {
    await server?.stop();
    if (adminUrl) execFileSync("psql", [adminUrl, "-qc", `DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`]);
  });

  it("exercises every source endpoint and error path, then finds zero plaintext secrets", async () => {
    const created: Record<string, string> = {};
    const create = async (name: string, type: string, configuration: Record<string, unknown>) => {
      const r = await call(`create ${name}`, "POST", "/api/v1/sources", { name, type, configuration });
      expect(r.status).toBe(201);
      created[name] = (r.json?.data as { id: string } | undefined)?.id ?? "";
    };
    await create("s3-src", "s3", {
      access_key: SECRETS.s3Access,
      secret_key: SECRETS.s3Secret,
      region: "eu-west-1",
      bucket: "b",
    });
    await create("azure-src", "azure", { connection_string: SECRETS.azure, container_name: "c" });
    await create("gcp-src", "google_cloud", { service_account_json: SECRETS.google, bucket_name: "g" });
    await create("img-src", "image_source", {
      base_url: "http://127.0.0.1:1/images",
      canonical_header: "x",
      forward_header: true,
    });
    const s3 = created["s3-src"]!;

    // Reads.
    for (const id of Object.values(created))
      expect((await call(`get ${id}`, "GET", `/api/v1/sources/${id}`)).status).toBe(200);
    expect((await call("list", "GET", "/api/v1/sources?limit=100")).status).toBe(200);
    expect((await call("list by type", "GET", "/api/v1/sources?type=s3&search=s3")).status).toBe(200);
    // Update: masked value sent back keeps the secret; then a rotation; then a name change.
    const masked = await call("get masked", "GET", `/api/v1/sources/${s3}`);
    const maskedConfig = (masked.json?.data as { configuration: Record<string, unknown> } | undefined)
      ?.configuration;
    expect(
      (await call("patch masked echo", "PATCH", `/api/v1/sources/${s3}`, { configuration: maskedConfig }))
        .status,
    ).toBe(200);
    expect(
      (
        await call("patch rotate", "PATCH", `/api/v1/sources/${s3}`, {
          configuration: { secret_key: SECRETS.s3SecretRotated },
        })
      ).status,
    ).toBe(200);
    // A rename (the old name stays as an alias) is logged like the other updates.
    expect(
      (await call("patch name", "PATCH", `/api/v1/sources/${s3}`, { name: "s3-src-renamed" })).status,
    ).toBe(200);

    // Error paths, each carrying a secret in the request.
    const errors: [string, string, string, unknown, string | null | undefined, number][] = [
      [
        "create invalid config",
        "POST",
        "/api/v1/sources",
        { name: "bad1", type: "s3", configuration: { secret_key: SECRETS.rejected } },
        undefined,
        400,
      ],
      [
        "create extra field",
        "POST",
        "/api/v1/sources",
        {
          name: "bad2",
          type: "azure",
          configuration: {
            connection_string: SECRETS.rejected,
            container_name: "c",
            password: SECRETS.rejected,
          },
        },
        undefined,
        400,
      ],
      [
        "create wrong type",
        "POST",
        "/api/v1/sources",
        {
          name: "bad3",
          type: "s3",
          configuration: { access_key: [SECRETS.rejected], region: "r", bucket: "b" },
        },
        undefined,
        400,
      ],
      [
        "create secret for other type",
        "POST",
        "/api/v1/sources",
        {
          name: "bad4",
          type: "image_source",
          configuration: { base_url: "http://127.0.0.1:1/x", secret_key: SECRETS.rejected },
        },
        undefined,
        400,
      ],
      [
        "create duplicate",
        "POST",
        "/api/v1/sources",
        {
          name: "azure-src",
          type: "azure",
          configuration: { connection_string: SECRETS.rejected, container_name: "c" },
        },
        undefined,
        409,
      ],
      [
        "create bad name",
        "POST",
        "/api/v1/sources",
        {
          name: `bad name ${SECRETS.rejected}`.slice(0, 20),
          type: "s3",
          configuration: { secret_key: SECRETS.rejected, region: "r", bucket: "b" },
        },
        undefined,
        400,
      ],
      [
        "create public key",
        "POST",
        "/api/v1/sources",
        {
          name: "pub",
          type: "s3",
          configuration: { secret_key: SECRETS.rejected, region: "r", bucket: "b" },
        },
        server.keys.public,
        403,
      ],
      [
        "create no key",
        "POST",
        "/api/v1/sources",
        {
          name: "nokey",
          type: "s3",
          configuration: { secret_key: SECRETS.rejected, region: "r", bucket: "b" },
        },
        null,
        401,
      ],
      [
        "create malformed json",
        "POST",
        "/api/v1/sources",
        `{"name":"m","type":"s3","configuration":{"secret_key":"${SECRETS.rejected}"`,
        undefined,
        400,
      ],
      [
        "patch invalid merge",
        "PATCH",
        `/api/v1/sources/${s3}`,
        { configuration: { region: "", secret_key: SECRETS.rejectedUpdate } },
        undefined,
        400,
      ],
      [
        "patch extra field",
        "PATCH",
        `/api/v1/sources/${created["azure-src"]}`,
        { configuration: { token: SECRETS.rejectedUpdate } },
        undefined,
        400,
      ],
      [
        "patch duplicate name",
        "PATCH",
        `/api/v1/sources/${s3}`,
        { name: "azure-src", configuration: { secret_key: SECRETS.rejectedUpdate } },
        undefined,
        409,
      ],
      [
        "patch other workspace",
        "PATCH",
        `/api/v1/sources/${s3}`,
        { configuration: { secret_key: SECRETS.rejectedUpdate } },
        server.keys.private2,
        404,
      ],
      [
        "patch unknown",
        "PATCH",
        "/api/v1/sources/00000000-0000-4000-8000-000000000000",
        { configuration: { secret_key: SECRETS.rejectedUpdate } },
        undefined,
        404,
      ],
      ["get other workspace", "GET", `/api/v1/sources/${s3}`, undefined, server.keys.private2, 404],
      ["get bad id (unknown: 404)", "GET", "/api/v1/sources/not-a-uuid", undefined, undefined, 404],
      ["list bad limit", "GET", "/api/v1/sources?limit=1000", undefined, undefined, 400],
      ["delete other workspace", "DELETE", `/api/v1/sources/${s3}`, undefined, server.keys.private2, 404],
    ];
    const statusMismatches: string[] = [];
    for (const [label, method, path, body, key, expected] of errors) {
      const r = await call(label, method, path, body, key);
      expect(r.status, label).toBeGreaterThanOrEqual(400);
      expect(r.status, label).toBeLessThan(500);
      if (r.status !== expected) statusMismatches.push(`${label}: ${r.status} (expected ${expected})`);
    }
    expect(statusMismatches).toEqual([]);

    // The stored secrets are still usable where they should be (masked responses, kept on PATCH)
    const after = await call("get after", "GET", `/api/v1/sources/${s3}`);
    expect(JSON.stringify(after.json)).toMatch(/"secret_key":"\*+"/);
    await call("openapi", "GET", "/openapi.json", undefined, null);

    // Dump the database while the server runs: the tables' full text.
    const dump = execFileSync("pg_dump", ["--data-only", "--no-owner", databaseUrl], {
      maxBuffer: 256 * 1024 * 1024,
      stdio: ["ignore", "pipe", "pipe"],
    }).toString();
    expect(dump).toContain("azure-src"); // the dump really holds the sources
    // Delete last (204), so the rows above were present in the dump.
    expect((await call("delete", "DELETE", `/api/v1/sources/${created["gcp-src"]}`)).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const log = server.output();
    expect(log.length).toBeGreaterThan(0);

    const haystacks = [
      ...responses.map((r) => ({ where: `response: ${r.label}`, text: r.text })),
      { where: "server output (LOG_LEVEL=debug)", text: log },
      { where: "pg_dump", text: dump },
    ];
    const hits: string[] = [];
    let searched = 0;
    for (const [name, value] of Object.entries(SECRETS)) {
      for (const needle of needles(value)) {
        for (const { where, text } of haystacks) {
          searched += 1;
          if (text.includes(needle)) hits.push(`${name} in ${where}`);
        }
      }
    }
    reportFigures("secrets", {
      secrets: Object.keys(SECRETS).length,
      responses: responses.length,
      logBytes: log.length,
      dumpBytes: dump.length,
      searches: searched,
      hits,
    });
    expect(hits).toEqual([]);
  });
});
