/**
 * Reliability 5: two trove-server processes behind one "load balancer", sharing one PostgreSQL
 * database, one S3 store (s3rver) and one Redis, as a horizontally scaled deployment runs.
 *
 * - A multipart session started on instance A takes parts on both instances and completes on B;
 *   the file reads back byte for byte from either.
 * - The SDK, through a fetch that routes start to A, parts alternately and complete to B, does
 *   the same with concurrent parts.
 * - A is killed between parts: the rest of the upload goes to B and completes there.
 * - The rate limit is one limit: requests spread over both instances are counted together, and
 *   every 429 carries `retryAfterSeconds` equal to its Retry-After header.
 * - A key revoked with `trove-server keys revoke` (neither instance is told) is refused by both
 *   once a second has passed, although both had just cached its lookup.
 * - A key revoked through the admin API on A is refused by A at once (A drops it from its cache)
 *   and by B, which is not told, within a second.
 *
 * Needs TROVE_TEST_DATABASE_URL (an admin URL of a PostgreSQL server) and redis-server on PATH.
 */
import { randomBytes } from "node:crypto";
import { createClient } from "@trove/sdk/node";
import { runServerCommand, type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisProcess, startRedis } from "../support/redis-process";
import { api, reportFigures } from "../support/reliability-profile";
import { type StorageBackend, startStorage } from "../support/storage-matrix";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const adminUrl = process.env.TROVE_TEST_DATABASE_URL;
const MIB = 1024 * 1024;
const RATE_LIMIT = 20;
const ADMIN_TOKEN = randomBytes(32).toString("hex");

interface Session {
  session_id: string;
  part_size: number;
  parts: string[];
}

/** The same URL on another instance, as a load balancer in front of both would route it. */
function onInstance(url: string, instance: ServerProcess): string {
  const target = new URL(url);
  const base = new URL(instance.baseUrl);
  target.host = base.host;
  return target.href;
}

async function putPart(url: string, bytes: Uint8Array): Promise<number> {
  const response = await fetch(url, {
    method: "PUT",
    headers: { "content-type": "application/octet-stream" },
    body: bytes as BodyInit,
  });
  await response.arrayBuffer();
  return response.status;
}

/** Starts a multipart session on `instance` with the public key. */
async function startSession(instance: ServerProcess, fileName: string, size: number): Promise<Session> {
  const start = await api(instance.baseUrl, instance.keys.public, "POST", "/api/v1/multipart/start", {
    file_name: fileName,
    size,
    format: "application/octet-stream",
  });
  expect(start.status).toBe(200);
  return start.body as Session;
}

async function download(url: string): Promise<Buffer> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe.runIf(adminUrl)("two instances sharing PostgreSQL, S3 and Redis", () => {
  let database: TestDatabase;
  let redis: RedisProcess;
  let storage: StorageBackend;
  let a: ServerProcess;
  let b: ServerProcess;
  let env: Record<string, string>;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    database = createTestDatabase(adminUrl!, "two_instances");
    [redis, storage] = await Promise.all([startRedis(), startStorage("s3")]);
    env = {
      ...storage.env,
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      // One secret: part URLs signed by one instance verify on the other.
      TROVE_SECRET_KEY: randomBytes(32).toString("hex"),
      TROVE_RATE_LIMIT_MAX: String(RATE_LIMIT),
      TROVE_RATE_LIMIT_WINDOW_MS: "60000",
      TROVE_ADMIN_TOKEN: ADMIN_TOKEN,
    };
    // A runs the migrations and seeds the keys; B finds both already there.
    a = await startServerProcess(env);
    b = await startServerProcess(env, { keys: a.keys });
  });

  afterAll(async () => {
    reportFigures("two-instances", figures);
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await Promise.allSettled([redis?.stop(), storage?.stop()]);
    database?.drop();
  });

  it("a session started on A takes parts on A and B and completes on B", async () => {
    const content = randomBytes(11 * MIB);
    const session = await startSession(a, "across.bin", content.length);
    expect(session.parts.length).toBeGreaterThanOrEqual(3);
    const statuses = await Promise.all(
      session.parts.map((url, i) =>
        putPart(
          onInstance(url, i % 2 === 0 ? a : b),
          content.subarray(i * session.part_size, (i + 1) * session.part_size),
        ),
      ),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
    const complete = await api(b.baseUrl, b.keys.public, "POST", "/api/v1/multipart/complete", {
      session_id: session.session_id,
    });
    expect(complete.status).toBe(200);
    const file = (complete.body as { data: { url: string; file_no: string } }).data;
    // Both instances serve the assembled object, and both list the file.
    expect((await download(file.url)).equals(content)).toBe(true);
    expect((await download(onInstance(file.url, a))).equals(content)).toBe(true);
    const details = await api(a.baseUrl, a.keys.private, "GET", `/api/v1/files/${file.file_no}`);
    expect(details.status).toBe(200);
    figures.splitSession = { parts: session.parts.length, partsOnA: Math.ceil(session.parts.length / 2) };
  });

  it("the SDK behind a routing fetch: start on A, parts on both, complete on B", async () => {
    const seen = { start: new Set<string>(), parts: new Map<string, number>(), complete: new Set<string>() };
    let partCount = 0;
    const balancer: typeof fetch = (input, init) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      let target: ServerProcess;
      if (url.includes("/api/v1/multipart/start")) target = a;
      else if (url.includes("/api/v1/multipart/complete")) target = b;
      else if (url.includes("/api/v1/multipart/parts/")) target = partCount++ % 2 === 0 ? a : b;
      else target = a;
      const routed = onInstance(url, target);
      if (url.includes("/multipart/start")) seen.start.add(target.baseUrl);
      if (url.includes("/multipart/complete")) seen.complete.add(target.baseUrl);
      if (url.includes("/multipart/parts/"))
        seen.parts.set(target.baseUrl, (seen.parts.get(target.baseUrl) ?? 0) + 1);
      // ky hands over a Request: re-address it, keeping its method, headers and body.
      return input instanceof Request ? fetch(new Request(routed, input), init) : fetch(routed, init);
    };
    const client = createClient({
      apiKey: a.keys.private,
      baseUrl: a.baseUrl,
      fetch: balancer,
      multipartThreshold: 5 * MIB,
      concurrency: 3,
    });
    const content = randomBytes(16 * MIB);
    const result = await client.upload(content, {
      fileName: "sdk-across.bin",
      contentType: "application/octet-stream",
    });
    expect([...seen.start]).toEqual([a.baseUrl]);
    expect([...seen.complete]).toEqual([b.baseUrl]);
    expect(seen.parts.get(a.baseUrl)).toBeGreaterThan(0);
    expect(seen.parts.get(b.baseUrl)).toBeGreaterThan(0);
    expect((await download(result.url)).equals(content)).toBe(true);
    figures.sdkSession = { partsOnA: seen.parts.get(a.baseUrl), partsOnB: seen.parts.get(b.baseUrl) };
  });

  it("the rate limit is shared: requests on both instances count against one budget", async () => {
    // Workspace 2's key has not been used yet, so its whole budget is left.
    const statuses: number[] = [];
    const rejected: Array<{ body: unknown; retryAfter: string | null }> = [];
    for (let i = 0; i < RATE_LIMIT + 10; i += 1) {
      const instance = i % 2 === 0 ? a : b;
      const response = await fetch(`${instance.baseUrl}/api/v1/files`, {
        headers: { "x-api-key": a.keys.private2 },
      });
      const body = (await response.json()) as unknown;
      statuses.push(response.status);
      if (response.status === 429) rejected.push({ body, retryAfter: response.headers.get("retry-after") });
    }
    // Separate counters would have let all 30 through (15 per instance, under 20 each).
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(statuses.slice(RATE_LIMIT).every((s) => s === 429)).toBe(true);
    for (const { body, retryAfter } of rejected) {
      const seconds = (body as { retryAfterSeconds: number }).retryAfterSeconds;
      expect(Number.isInteger(seconds)).toBe(true);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(60);
      expect(retryAfter).toBe(String(seconds));
    }
    figures.sharedRateLimit = {
      limit: RATE_LIMIT,
      sent: statuses.length,
      ok: RATE_LIMIT,
      rejected: rejected.length,
    };
  });

  it("a key revoked with the CLI is refused by both instances within a second", async () => {
    const upload = await fetch(`${a.baseUrl}/api/v1/uploads`, {
      method: "POST",
      headers: { "x-api-key": a.keys.public },
      body: (() => {
        const form = new FormData();
        form.set("file_name", "revocation-probe.bin");
        form.set("file", new Blob([randomBytes(64)]), "revocation-probe.bin");
        return form;
      })(),
    });
    expect(upload.status).toBe(200);
    const { workspace_no } = ((await upload.json()) as { data: { workspace_no: string } }).data;
    const key = (
      await runServerCommand(["keys", "create", "--workspace", workspace_no, "--type", "private"], env)
    ).trim();
    const statusOn = async (instance: ServerProcess) =>
      (await fetch(`${instance.baseUrl}/api/v1/files`, { headers: { "x-api-key": key } })).status;
    // Both instances look the new key up and cache it.
    expect([await statusOn(a), await statusOn(b)]).toEqual([200, 200]);
    await runServerCommand(["keys", "revoke", key], env);
    const revokedAt = Date.now();
    // The promise is "within a second" (TROVE_KEY_CACHE_MS, default 1000): wait it out, then
    // neither instance may accept the key again.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, revokedAt + 1000 - Date.now())));
    const after: number[] = [];
    for (let i = 0; i < 6; i += 1) after.push(await statusOn(i % 2 === 0 ? a : b));
    expect(after).toEqual([401, 401, 401, 401, 401, 401]);
    figures.keyRevocation = { refusedAfterMs: 1000, requestsAfter: after.length };
  });

  it("a key revoked through the admin API on A is refused by A at once and by B within a second", async () => {
    const adminCall = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${a.baseUrl}/admin/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
      return (await res.json()) as Record<string, unknown>;
    };
    const workspace = await adminCall("POST", "/workspaces", { name: "revocation" });
    const created = await adminCall("POST", `/workspaces/${workspace.workspace_no}/keys`, {
      type: "private",
    });
    const statusOn = async (instance: ServerProcess) =>
      (await fetch(`${instance.baseUrl}/api/v1/files`, { headers: { "x-api-key": String(created.key) } }))
        .status;
    // Both instances look the new key up and cache it.
    expect([await statusOn(a), await statusOn(b)]).toEqual([200, 200]);
    await adminCall("DELETE", `/workspaces/${workspace.workspace_no}/keys/${created.id}`);
    const revokedAt = Date.now();
    expect(await statusOn(a)).toBe(401);
    // B was not told: its cached lookup may serve until TROVE_KEY_CACHE_MS (1000) has passed.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, revokedAt + 1000 - Date.now())));
    const after: number[] = [];
    for (let i = 0; i < 6; i += 1) after.push(await statusOn(i % 2 === 0 ? a : b));
    expect(after).toEqual([401, 401, 401, 401, 401, 401]);
    figures.adminKeyRevocation = { refusedByOtherInstanceAfterMs: 1000, requestsAfter: after.length };
  });

  it("A dies between parts: the upload goes on on B and completes there", async () => {
    const content = randomBytes(11 * MIB);
    const session = await startSession(a, "failover.bin", content.length);
    const part = (i: number) => content.subarray(i * session.part_size, (i + 1) * session.part_size);
    expect(await putPart(session.parts[0]!, part(0))).toBe(200);
    await a.kill();
    for (let i = 1; i < session.parts.length; i += 1) {
      expect(await putPart(onInstance(session.parts[i]!, b), part(i))).toBe(200);
    }
    const complete = await api(b.baseUrl, b.keys.public, "POST", "/api/v1/multipart/complete", {
      session_id: session.session_id,
    });
    expect(complete.status).toBe(200);
    const file = (complete.body as { data: { url: string } }).data;
    expect((await download(onInstance(file.url, b))).equals(content)).toBe(true);
    await a.restart();
    figures.failover = { partsBeforeKill: 1, partsOnB: session.parts.length - 1, completedOn: "B" };
  });
});
