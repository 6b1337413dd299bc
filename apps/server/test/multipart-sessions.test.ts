// Whose multipart session it is (issue #30), in-process on fs: only the starting credential
// completes (first time and again, within the session's lifetime, never with a signed URL a
// public caller could not get otherwise); the part gateway refuses parts once that credential is
// dead; a token's session ends with the token and holds one of its files from start; DELETE
// /api/v1/multipart/:sessionId abandons a session. Attacks against a real process:
// e2e/security/multipart-sessions.test.ts.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { MultipartSession } from "@trove/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/keys/api-keys.js";
import { COMPLETING_STALE_MS } from "../src/multipart/complete-session.js";
import { sweepExpiredSessions } from "../src/multipart/index.js";
import { CREDENTIAL_GONE_MESSAGE } from "../src/multipart/receive-part.js";
import { FS_MULTIPART_DIR } from "../src/storage/multipart/index.js";
import {
  abandonRaw,
  complete,
  completeRaw,
  putPart,
  start,
  startRaw,
  testBytes,
  uploadAll,
} from "./multipart-helpers.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { pattern } from "./support/test-images.js";
import { mintUploadToken } from "./uploads-helpers.js";

const NOT_FOUND = { success: false, error: "Session not found" };
const GONE = { success: false, error: CREDENTIAL_GONE_MESSAGE };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const mint = (body: Record<string, unknown> = {}, key = t.keys.private) => mintUploadToken(t, body, key);

function abandon(sessionId: string, key: string | null = t.keys.private) {
  return abandonRaw(t, sessionId, key);
}

async function usedFiles(token: string): Promise<number> {
  const row = await t.app.db.uploadToken.findFirstOrThrow({ where: { prefix: token.slice(0, 17) } });
  return row.usedFiles;
}

async function sessionRow(id: string) {
  return t.app.db.multipartSession.findUniqueOrThrow({ where: { id } });
}

async function staged(): Promise<string[]> {
  return readdir(join(t.storageDir, FS_MULTIPART_DIR)).catch(() => []);
}

/** A second public and private key of the test workspace. */
async function newKey(type: "public" | "private") {
  const { key, record } = await createApiKey(t.app.db, { workspaceId: t.workspace.id, type });
  return { key, id: record.id };
}

/** A started session whose one part (of `size` bytes) is uploaded. */
async function uploaded(
  key: string,
  body: Record<string, unknown> = {},
  size = 10,
): Promise<MultipartSession> {
  const data = testBytes(size);
  const session = await start(t, { file_name: "s.bin", size, ...body }, key);
  await uploadAll(t, session, data);
  return session;
}

describe("complete: only the credential that started the session", () => {
  it("refuses the public key for a token's session, and the token's minting key too", async () => {
    const { token } = await mint();
    const session = await uploaded(token);
    for (const key of [t.keys.public, t.keys.private]) {
      const res = await completeRaw(t, session.session_id, key);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
    expect((await sessionRow(session.session_id)).status).toBe("pending");
    expect((await completeRaw(t, session.session_id, token)).statusCode).toBe(200);
    // Once completed, the others still see nothing.
    expect((await completeRaw(t, session.session_id, t.keys.public)).json()).toEqual(NOT_FOUND);
  });

  it("refuses another key of the same workspace, and another token of the same key", async () => {
    const other = await newKey("private");
    const mine = await uploaded(t.keys.private);
    expect((await completeRaw(t, mine.session_id, other.key)).json()).toEqual(NOT_FOUND);
    const first = await mint({ max_files: 2 });
    const second = await mint({ max_files: 2 });
    const tokens = await uploaded(first.token);
    expect((await completeRaw(t, tokens.session_id, second.token)).json()).toEqual(NOT_FOUND);
    const publicOne = await uploaded(t.keys.public);
    const otherPublic = await newKey("public");
    expect((await completeRaw(t, publicOne.session_id, otherPublic.key)).json()).toEqual(NOT_FOUND);
    expect((await completeRaw(t, publicOne.session_id, t.keys.public)).statusCode).toBe(200);
  });

  it("answers a repeated complete until the session's expiry, then 404", async () => {
    const session = await uploaded(t.keys.public, { ttl_seconds: 60 });
    const first = await complete(t, session.session_id, t.keys.public);
    expect(await complete(t, session.session_id, t.keys.public)).toEqual(first);
    await t.app.db.multipartSession.update({
      where: { id: session.session_id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const late = await completeRaw(t, session.session_id, t.keys.public);
    expect(late.statusCode).toBe(404);
    expect(late.json()).toEqual(NOT_FOUND);
  });

  it("never gives a public key or a token a signed URL of a private file; a private key gets one", async () => {
    const { token } = await mint();
    for (const key of [t.keys.public, token]) {
      const session = await uploaded(key, { is_private: true });
      const first = await complete(t, session.session_id, key);
      const again = await complete(t, session.session_id, key);
      for (const done of [first, again]) {
        expect(done.url).not.toContain("?");
        expect((await t.app.inject({ method: "GET", url: new URL(done.url).pathname })).statusCode).toBe(404);
      }
    }
    const own = await uploaded(t.keys.private, { is_private: true });
    expect((await complete(t, own.session_id)).url).toContain("?");
  });

  it("a file made private after the complete is not signed for the public key's repeat either", async () => {
    const session = await uploaded(t.keys.public);
    const first = await complete(t, session.session_id, t.keys.public);
    expect(first.url).not.toContain("?");
    await t.app.db.file.update({ where: { id: first.id }, data: { isPrivate: true } });
    const again = await complete(t, session.session_id, t.keys.public);
    expect(again.url).toBe(first.url);
  });
});

describe("part gateway: the session's credential must still stand", () => {
  it("refuses parts once the starting key is revoked or expired", async () => {
    for (const change of [{ revokedAt: new Date() }, { expiresAt: new Date(Date.now() - 1000) }]) {
      const { id, key } = await newKey("public");
      const session = await start(t, { file_name: "k.bin", size: 10 }, key);
      await t.app.db.apiKey.update({ where: { id }, data: change });
      const res = await putPart(t, session.parts[0] as string, testBytes(10));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(GONE);
    }
  });

  it("refuses parts of a token's session once its minting key is revoked, or the token expired", async () => {
    const minter = await newKey("private");
    const { token } = await mint({ max_files: 2 }, minter.key);
    const session = await start(t, { file_name: "m.bin", size: 10 }, token);
    await t.app.db.apiKey.update({ where: { id: minter.id }, data: { revokedAt: new Date() } });
    expect((await putPart(t, session.parts[0] as string, testBytes(10))).json()).toEqual(GONE);
    // And complete: the token died with its key, for every credential.
    expect((await completeRaw(t, session.session_id, token)).statusCode).toBe(401);
    expect((await completeRaw(t, session.session_id, t.keys.public)).json()).toEqual(NOT_FOUND);

    const live = await mint();
    const other = await start(t, { file_name: "e.bin", size: 10 }, live.token);
    await t.app.db.uploadToken.updateMany({
      where: { prefix: live.token.slice(0, 17) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await putPart(t, other.parts[0] as string, testBytes(10))).json()).toEqual(GONE);
  });

  it("refuses parts while the workspace is disabled", async () => {
    const session = await start(t, { file_name: "w.bin", size: 10 });
    await t.app.db.workspace.update({ where: { id: t.workspace.id }, data: { disabledAt: new Date() } });
    try {
      expect((await putPart(t, session.parts[0] as string, testBytes(10))).json()).toEqual(GONE);
    } finally {
      await t.app.db.workspace.update({ where: { id: t.workspace.id }, data: { disabledAt: null } });
    }
    expect((await putPart(t, session.parts[0] as string, testBytes(10))).statusCode).toBe(200);
  });
});

describe("a token's sessions", () => {
  it("end no later than the token, part URLs included", async () => {
    const { token, expires_at } = await mint({ expires_in: 120, max_files: 2 });
    const session = await start(t, { file_name: "cap.bin", size: 10, ttl_seconds: 3600 }, token);
    const tokenExpiry = Math.floor(Date.parse(expires_at) / 1000);
    expect(session.expires_at).toBe(tokenExpiry);
    expect(new URL(session.parts[0] as string).searchParams.get("expires")).toBe(String(tokenExpiry));
    expect((await sessionRow(session.session_id)).expiresAt.getTime()).toBe(tokenExpiry * 1000);
    // A shorter ttl_seconds still wins.
    const short = await start(t, { file_name: "short.bin", size: 10, ttl_seconds: 30 }, token);
    expect(short.expires_at).toBeLessThan(tokenExpiry);
  });

  it("take one of max_files at start: a one-shot token starts one session", async () => {
    const { token } = await mint();
    const session = await start(t, { file_name: "one.bin", size: 10 }, token);
    expect(await usedFiles(token)).toBe(1);
    const second = await startRaw(
      t,
      { file_name: "two.bin", size: 10, format: "application/octet-stream" },
      token,
    );
    expect(second.statusCode).toBe(403);
    expect(second.json()).toMatchObject({ success: false, errorCode: "TOKEN_EXHAUSTED" });
    // The file keeps the count the session took: it is not counted twice.
    await uploadAll(t, session, testBytes(10));
    await complete(t, session.session_id, token);
    expect(await usedFiles(token)).toBe(1);
  });

  it("counts concurrent starts: never more sessions than max_files", async () => {
    const { token } = await mint({ max_files: 3 });
    const body = { file_name: "c.bin", size: 10, format: "application/octet-stream" };
    const results = await Promise.all(Array.from({ length: 6 }, () => startRaw(t, body, token)));
    expect(results.filter((res) => res.statusCode === 200)).toHaveLength(3);
    expect(await usedFiles(token)).toBe(3);
  });

  it("give the count back when abandoned, refused at complete, or swept unused", async () => {
    const { token } = await mint({ allowed_types: ["image/*"] });
    const abandoned = await start(t, { file_name: "a.bin", size: 10 }, token);
    expect((await abandon(abandoned.session_id, token)).statusCode).toBe(200);
    expect(await usedFiles(token)).toBe(0);

    // Not an image: refused at complete, the session aborted.
    const refused = await uploaded(token, { format: "image/png" });
    expect((await completeRaw(t, refused.session_id, token)).statusCode).toBe(415);
    expect((await sessionRow(refused.session_id)).status).toBe("aborted");
    expect(await usedFiles(token)).toBe(0);

    const swept = await start(t, { file_name: "s.bin", size: 10, ttl_seconds: 5 }, token);
    expect(await usedFiles(token)).toBe(1);
    await sweepExpiredSessions(t.app.multipartDeps, new Date(Date.now() + 60_000));
    expect((await sessionRow(swept.session_id)).status).toBe("expired");
    expect(await usedFiles(token)).toBe(0);

    const png = await pattern(8, 8);
    const last = await start(t, { file_name: "p.png", size: png.length, format: "image/png" }, token);
    await uploadAll(t, last, png);
    await complete(t, last.session_id, token);
    expect(await usedFiles(token)).toBe(1);
  });
});

describe("DELETE /api/v1/multipart/:sessionId", () => {
  it("removes the staged bytes and part rows; parts and complete are refused after, a repeat is 200", async () => {
    const before = await staged();
    const data = testBytes(5 * 1024 * 1024 + 10);
    const session = await start(t, { file_name: "gone.bin", size: data.length });
    await uploadAll(t, session, data, [0]);
    const row = await sessionRow(session.session_id);
    expect(await staged()).toContain(row.storageUploadId);
    const res = await abandon(session.session_id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await staged()).toEqual(before);
    expect(await t.app.db.multipartPart.count({ where: { sessionId: session.session_id } })).toBe(0);
    expect((await sessionRow(session.session_id)).status).toBe("aborted");
    expect((await putPart(t, session.parts[1] as string, data.subarray(5 * 1024 * 1024))).json()).toEqual({
      success: false,
      error: "Session aborted",
    });
    expect((await completeRaw(t, session.session_id)).json()).toEqual({
      success: false,
      error: "Session aborted",
    });
    expect((await abandon(session.session_id)).json()).toEqual({ success: true });
  });

  it("is the starting credential's, or any private key's of the workspace; others get 404", async () => {
    const { token } = await mint({ max_files: 3 });
    const mine = await start(t, { file_name: "x.bin", size: 10 }, token);
    for (const key of [t.keys.public, t.keys.private2]) {
      const res = await abandon(mine.session_id, key);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
    const other = await newKey("private");
    expect((await abandon(mine.session_id, other.key)).statusCode).toBe(200);
    const privates = await start(t, { file_name: "y.bin", size: 10 });
    expect((await abandon(privates.session_id, token)).json()).toEqual(NOT_FOUND);
    expect((await abandon(privates.session_id, t.keys.public)).json()).toEqual(NOT_FOUND);
    for (const id of ["01a20166-be89-7502-952f-aeec61debab3", "not-a-session"]) {
      expect((await abandon(id)).json()).toEqual(NOT_FOUND);
    }
    expect((await abandon(mine.session_id, null)).statusCode).toBe(401);
  });

  it("409 for a completed session (its file stays) and for one being completed; a stale complete is taken over", async () => {
    const done = await uploaded(t.keys.private);
    const file = await complete(t, done.session_id);
    const res = await abandon(done.session_id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false });
    expect(await t.app.db.file.count({ where: { id: file.id } })).toBe(1);

    const busy = await uploaded(t.keys.private);
    await t.app.db.multipartSession.update({
      where: { id: busy.session_id },
      data: { status: "completing" },
    });
    expect((await abandon(busy.session_id)).statusCode).toBe(409);
    await t.app.db.multipartSession.update({
      where: { id: busy.session_id },
      data: { updatedAt: new Date(Date.now() - COMPLETING_STALE_MS - 1000) },
    });
    expect((await abandon(busy.session_id)).statusCode).toBe(200);
    expect((await sessionRow(busy.session_id)).status).toBe("aborted");
  });
});
