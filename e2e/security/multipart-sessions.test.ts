/**
 * Security (issue #30, holes 1, 4 and 5): multipart sessions against a real `trove-server`
 * process over loopback HTTP. A session id travels in every part URL, so the attacker here holds
 * session ids and the public key: they replay `complete` of a token's session, replay it after
 * the session expired and after the file was made private, keep sending parts and completing
 * after the token's minting key was revoked, and start sessions with a one-second one-shot
 * token. Then a client abandons a session with DELETE and its staged bytes must be gone, and a
 * token's session that expires unused must give its count back (the sweeper runs every second).
 */
import { randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradientPng } from "../support/png";
import { api } from "../support/reliability-profile";

const ADMIN_TOKEN = randomBytes(32).toString("hex");
const NOT_FOUND = { success: false, error: "Session not found" };
const png = gradientPng(24, 16);

interface Session {
  session_id: string;
  part_size: number;
  parts: string[];
  expires_at: number;
}
interface Completed {
  id: string;
  file_no: string;
  url: string;
  workspace_no: string;
}

let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess({
    TROVE_ADMIN_TOKEN: ADMIN_TOKEN,
    TROVE_MULTIPART_SWEEP_INTERVAL_MS: "1000",
  });
});
afterAll(async () => {
  await server?.stop();
});

async function mint(body: Record<string, unknown>, key = server.keys.private): Promise<string> {
  const res = await api(server.baseUrl, key, "POST", "/api/v1/uploads/tokens", body);
  expect(res.status, res.text).toBe(200);
  return (res.body as { token: string }).token;
}

function startRaw(key: string, body: Record<string, unknown> = {}) {
  return api(server.baseUrl, key, "POST", "/api/v1/multipart/start", {
    file_name: "clip.png",
    size: png.length,
    format: "image/png",
    ...body,
  });
}

async function start(key: string, body: Record<string, unknown> = {}): Promise<Session> {
  const res = await startRaw(key, body);
  expect(res.status, res.text).toBe(200);
  return res.body as Session;
}

function completeRaw(key: string, sessionId: string) {
  return api(server.baseUrl, key, "POST", "/api/v1/multipart/complete", { session_id: sessionId });
}

async function complete(key: string, sessionId: string): Promise<Completed> {
  const res = await completeRaw(key, sessionId);
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: Completed }).data;
}

async function put(url: string, bytes: Uint8Array = png) {
  const response = await fetch(url, {
    method: "PUT",
    body: bytes as BodyInit,
    headers: { "content-type": "application/octet-stream" },
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

async function admin(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return (await response.json()) as Record<string, unknown>;
}

/** The pending uploads the fs driver stages (one directory per session). */
async function stagedUploads(): Promise<string[]> {
  return readdir(join(server.dataDir, "storage", ".multipart")).catch(() => []);
}

async function until<T>(attempt: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await attempt();
    if (result !== undefined) return result;
    if (Date.now() > deadline) throw new Error(`${what}: not in time`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("replaying complete", () => {
  it("the public key cannot complete, or replay the complete of, a token's session", async () => {
    const token = await mint({ max_files: 1 });
    const session = await start(token);
    expect((await put(session.parts[0] as string)).status).toBe(200);
    const before = await completeRaw(server.keys.public, session.session_id);
    expect(before.status).toBe(404);
    expect(before.body).toEqual(NOT_FOUND);
    await complete(token, session.session_id);
    const after = await completeRaw(server.keys.public, session.session_id);
    expect(after.status).toBe(404);
    expect(after.body).toEqual(NOT_FOUND);
    expect(after.text).not.toContain("http");
  });

  it("a replay after the session expired is 404, even for the credential that started it", async () => {
    const session = await start(server.keys.public, { ttl_seconds: 4 });
    expect((await put(session.parts[0] as string)).status).toBe(200);
    const first = await complete(server.keys.public, session.session_id);
    expect(first.url).toContain(first.workspace_no);
    await until(
      async () => (Date.now() > session.expires_at * 1000 + 200 ? true : undefined),
      "session expiry",
    );
    const late = await completeRaw(server.keys.public, session.session_id);
    expect(late.status).toBe(404);
    expect(late.body).toEqual(NOT_FOUND);
  });

  it("a replay after the file was made private carries no signed URL; the plain one is refused", async () => {
    const session = await start(server.keys.public);
    expect((await put(session.parts[0] as string)).status).toBe(200);
    const first = await complete(server.keys.public, session.session_id);
    expect((await fetch(first.url)).status).toBe(200);
    const made = await api(server.baseUrl, server.keys.private, "PATCH", `/api/v1/files/${first.file_no}`, {
      is_private: true,
    });
    expect(made.status, made.text).toBe(200);
    const again = await complete(server.keys.public, session.session_id);
    expect(again.url).not.toContain("?");
    expect(again.url).not.toMatch(/sig|expires/i);
    expect((await fetch(again.url)).status).toBe(404);
  });

  it("a public key uploading a private file gets no signed URL from the first complete either", async () => {
    const session = await start(server.keys.public, { is_private: true });
    expect((await put(session.parts[0] as string)).status).toBe(200);
    const first = await complete(server.keys.public, session.session_id);
    expect(first.url).not.toContain("?");
    expect((await fetch(first.url)).status).toBe(404);
  });
});

describe("a token dies with its minting key", () => {
  it("parts and complete of its session are refused once the key is revoked", async () => {
    const probe = await start(server.keys.private);
    expect((await put(probe.parts[0] as string)).status).toBe(200);
    const workspaceNo = (await complete(server.keys.private, probe.session_id)).workspace_no;
    const minter = await admin("POST", `/admin/v1/workspaces/${workspaceNo}/keys`, { type: "private" });
    const token = await mint({ max_files: 2 }, minter.key as string);
    const data = new Uint8Array(5 * 1024 * 1024 + 10);
    const session = await start(token, {
      file_name: "big.bin",
      size: data.length,
      format: "application/octet-stream",
    });
    expect((await put(session.parts[0] as string, data.subarray(0, session.part_size))).status).toBe(200);

    await admin("DELETE", `/admin/v1/workspaces/${workspaceNo}/keys/${minter.id}`);
    const part = await put(session.parts[1] as string, data.subarray(session.part_size));
    expect(part.status).toBe(400);
    expect(part.body).toEqual({
      success: false,
      error: "Session closed: the credential that started it is no longer valid",
    });
    for (const key of [token, server.keys.public, server.keys.private]) {
      const res = await completeRaw(key, session.session_id);
      expect([401, 404], `${key.slice(0, 9)}: ${res.text}`).toContain(res.status);
      expect(res.text).not.toContain("http");
    }
  });
});

describe("a session never outlives its token", () => {
  it("a one-second one-shot token starts at most one session, and that one ends with the token", async () => {
    const token = await mint({ expires_in: 1, max_files: 1 });
    const expiresAt = Date.now() + 1000;
    const starts = await Promise.all(Array.from({ length: 5 }, () => startRaw(token)));
    const started = starts.filter((res) => res.status === 200).map((res) => res.body as Session);
    expect(started.length).toBeLessThanOrEqual(1);
    for (const res of starts.filter((r) => r.status !== 200)) {
      expect([401, 403], res.text).toContain(res.status);
      expect(res.body).toMatchObject({ success: false });
    }
    for (const session of started) {
      expect(session.expires_at * 1000).toBeLessThanOrEqual(expiresAt);
      await until(async () => (Date.now() > session.expires_at * 1000 + 200 ? true : undefined), "expiry");
      const late = await put(session.parts[0] as string);
      expect(late.status).toBe(400);
      // "Session expired" (400), or the token's own 401 once it is past its expiry too.
      const done = await completeRaw(token, session.session_id);
      expect([400, 401], done.text).toContain(done.status);
      expect(done.body).toMatchObject({ success: false });
    }
    // Asking for a week changes nothing.
    const again = await startRaw(token, { ttl_seconds: 604_800 });
    expect([401, 403]).toContain(again.status);
  });

  it("a one-shot token's session takes the count at start and its expiry is the token's", async () => {
    const token = await mint({ expires_in: 60, max_files: 1 });
    const session = await start(token, { ttl_seconds: 604_800 });
    expect(session.expires_at * 1000).toBeLessThanOrEqual(Date.now() + 60_000);
    const second = await startRaw(token);
    expect(second.status).toBe(403);
    expect(second.body).toMatchObject({ success: false, errorCode: "TOKEN_EXHAUSTED" });
  });

  it("a token's session that expires unused gives its count back (the sweeper)", async () => {
    const token = await mint({ expires_in: 120, max_files: 1 });
    const session = await start(token, { ttl_seconds: 2 });
    expect((await startRaw(token)).status).toBe(403);
    await until(async () => ((await startRaw(token)).status === 200 ? true : undefined), "count given back");
    expect((await completeRaw(token, session.session_id)).status).toBe(400);
  });
});

describe("DELETE /api/v1/multipart/{sessionId}", () => {
  it("removes the staged bytes, gives a token's count back, and refuses other credentials", async () => {
    const token = await mint({ max_files: 1 });
    const before = await stagedUploads();
    const session = await start(token);
    expect((await put(session.parts[0] as string)).status).toBe(200);
    expect((await stagedUploads()).length).toBe(before.length + 1);

    const stranger = await api(
      server.baseUrl,
      server.keys.public,
      "DELETE",
      `/api/v1/multipart/${session.session_id}`,
    );
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual(NOT_FOUND);

    const res = await api(server.baseUrl, token, "DELETE", `/api/v1/multipart/${session.session_id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await stagedUploads()).toEqual(before);
    expect((await put(session.parts[0] as string)).status).toBe(400);
    expect((await completeRaw(token, session.session_id)).status).toBe(400);
    // The count is back: the one-shot token starts again.
    expect((await startRaw(token)).status).toBe(200);
  });
});
