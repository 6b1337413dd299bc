/**
 * Security (issue #14): upload tokens and upload policies against a real `trove-server` process
 * over loopback HTTP. A private key mints tokens; each rule is then attacked with the token as a
 * browser would hold it, on direct, remote-URL and multipart uploads: a type lie (PNG bytes named
 * .mp4), a size lie (multipart declared small, parts sent bigger), folder escapes (`../`, a sibling
 * prefix), an expired, a used-up, a tampered and another workspace's token. After every refusal
 * no file row and no stored object is left. Remote fetches go to a server this file starts on
 * 127.0.0.1 (TROVE_TRUSTED_RANGES 127.0.0.0/8).
 */

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradientPng } from "../support/png";
import { api } from "../support/reliability-profile";
import { storedObjects as storedObjectsOf } from "../support/stored-objects.js";
import { uploadRecord } from "../support/upload-record.js";

let server: ServerProcess;
let origin: Server;
let originUrl: string;
let remoteFetches = 0;
const png = gradientPng(40, 30);

beforeAll(async () => {
  origin = createServer((_request, response) => {
    remoteFetches++;
    response.writeHead(200, { "content-type": "video/mp4" }).end(png);
  });
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  server = await startServerProcess({ TROVE_TRUSTED_RANGES: "127.0.0.0/8" });
});

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => origin?.close(() => resolve()));
});

async function mint(body: Record<string, unknown> = {}, key = server.keys.private): Promise<string> {
  const res = await api(server.baseUrl, key, "POST", "/api/v1/uploads/tokens", body);
  expect(res.status, res.text).toBe(200);
  return (res.body as { token: string }).token;
}

async function upload(
  token: string,
  fields: Record<string, string>,
  content: Uint8Array = png,
  header: "x-api-key" | "authorization" = "authorization",
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("file", new Blob([content as BlobPart], { type: "video/mp4" }), fields.file_name ?? "f");
  const headers: Record<string, string> =
    header === "authorization" ? { authorization: `Bearer ${token}` } : { "x-api-key": token };
  const response = await fetch(`${server.baseUrl}/api/v1/uploads`, { method: "POST", headers, body: form });
  return { status: response.status, body: uploadRecord(await response.json()) };
}

function storedObjects(): Promise<string[]> {
  return storedObjectsOf(server.dataDir);
}

async function fileCount(key = server.keys.private): Promise<number> {
  const res = await api(server.baseUrl, key, "GET", "/api/v1/files?limit=100");
  expect(res.status, res.text).toBe(200);
  return (res.body as unknown[]).length;
}

/** Runs `attack`, then checks that it left no file, no object and no stored part behind. */
async function leavesNothing(attack: () => Promise<void>): Promise<void> {
  const [objects, files] = await Promise.all([storedObjects(), fileCount()]);
  await attack();
  const isNew = (key: string) => !objects.includes(key);
  const added = (await storedObjects()).filter(isNew);
  // A session still pending keeps its (empty) staging until it expires; no part, no object.
  expect(added.filter((key) => !/^\.multipart\/[0-9a-f]+\/(data|meta\.json)$/.test(key))).toEqual([]);
  expect(await fileCount()).toBe(files);
}

describe("direct uploads", () => {
  it("a type lie (PNG bytes named .mp4 under video/mp4) is refused 415 TYPE_NOT_ALLOWED", async () => {
    const token = await mint({ allowed_types: ["video/mp4"] });
    await leavesNothing(async () => {
      const res = await upload(token, { file_name: "clip.mp4" });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ success: false, errorCode: "TYPE_NOT_ALLOWED" });
    });
  });

  it("a file over max_file_size is cut off while streaming: 413 FILE_TOO_LARGE", async () => {
    const token = await mint({ max_file_size: 1024 });
    await leavesNothing(async () => {
      const res = await upload(token, { file_name: "big.bin" }, new Uint8Array(512 * 1024), "x-api-key");
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ success: false, errorCode: "FILE_TOO_LARGE" });
    });
  });

  it("folder escapes are refused: ../ by the name rules, a sibling prefix by the policy", async () => {
    const token = await mint({ folder: "avatars", folder_match: "prefix", max_files: 5 });
    await leavesNothing(async () => {
      const dotdot = await upload(token, { file_name: "a.png", folder: "avatars/../secrets" });
      expect(dotdot.status).toBe(400);
      for (const folder of ["avatars2", "avatars2/u1", "secrets"]) {
        const res = await upload(token, { file_name: "a.png", folder });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ errorCode: "FOLDER_NOT_ALLOWED" });
      }
    });
    const ok = await upload(token, { file_name: "a.png", folder: "avatars/u1" });
    expect(ok.status).toBe(200);
    expect(ok.body.path).toBe("avatars/u1/a.png");
  });

  it("a one-shot token creates one file; the second use is 403 TOKEN_EXHAUSTED", async () => {
    const token = await mint();
    expect((await upload(token, { file_name: "once.png" })).status).toBe(200);
    await leavesNothing(async () => {
      const again = await upload(token, { file_name: "twice.png" });
      expect(again.status).toBe(403);
      expect(again.body).toMatchObject({ success: false, errorCode: "TOKEN_EXHAUSTED" });
    });
  });

  it("an expired token is 401 TOKEN_EXPIRED; a tampered one 401 UNAUTHORIZED", async () => {
    const token = await mint({ expires_in: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const expired = await upload(token, { file_name: "late.png" });
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ errorCode: "TOKEN_EXPIRED" });
    const fresh = await mint();
    const flipped = fresh.slice(0, 12) + (fresh[12] === "A" ? "B" : "A") + fresh.slice(13);
    const tampered = await upload(flipped, { file_name: "x.png" });
    expect(tampered.status).toBe(401);
    expect(tampered.body).toMatchObject({ errorCode: "UNAUTHORIZED" });
    // The untampered token is still good: the refusal cost it nothing.
    expect((await upload(fresh, { file_name: "x.png" })).status).toBe(200);
  });

  it("a token minted in workspace B never lands a file in workspace A", async () => {
    const token = await mint({ folder: "b-only" }, server.keys.private2);
    const before = await fileCount();
    const res = await upload(token, { file_name: "b.png", folder: "b-only" });
    expect(res.status).toBe(200);
    expect(await fileCount()).toBe(before);
    const inB = await api(server.baseUrl, server.keys.private2, "GET", `/api/v1/files/${res.body.file_no}`);
    expect(inB.status).toBe(200);
    const inA = await api(server.baseUrl, server.keys.private, "GET", `/api/v1/files/${res.body.file_no}`);
    expect(inA.status).toBe(404);
  });

  it("a token cannot mint tokens or use private endpoints (403)", async () => {
    const token = await mint();
    expect((await api(server.baseUrl, token, "POST", "/api/v1/uploads/tokens", {})).status).toBe(403);
    expect((await api(server.baseUrl, token, "GET", "/api/v1/files")).status).toBe(403);
  });
});

describe("remote uploads", () => {
  it("are refused before any fetch unless allowed, and the sniffed type decides after", async () => {
    const url = `${originUrl}/clip.mp4`;
    const fetchesBefore = remoteFetches;
    await leavesNothing(async () => {
      const plain = await api(server.baseUrl, await mint(), "POST", "/api/v1/uploads/remote", {
        remote_url: url,
      });
      expect(plain.status).toBe(403);
      expect(plain.body).toMatchObject({ errorCode: "REMOTE_NOT_ALLOWED" });
      expect(remoteFetches).toBe(fetchesBefore);
      const lie = await mint({ allow_remote: true, allowed_types: ["video/mp4"] });
      const res = await api(server.baseUrl, lie, "POST", "/api/v1/uploads/remote", { remote_url: url });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ errorCode: "TYPE_NOT_ALLOWED" });
    });
    const images = await mint({ allow_remote: true, allowed_types: ["image/*"] });
    const ok = await api(server.baseUrl, images, "POST", "/api/v1/uploads/remote", { remote_url: url });
    expect(ok.status, ok.text).toBe(200);
  });
});

describe("multipart uploads", () => {
  const start = (token: string, body: Record<string, unknown>) =>
    api(server.baseUrl, token, "POST", "/api/v1/multipart/start", { format: "video/mp4", ...body });
  const complete = (token: string, sessionId: string) =>
    api(server.baseUrl, token, "POST", "/api/v1/multipart/complete", { session_id: sessionId });
  const put = async (url: string, bytes: Uint8Array) =>
    (
      await fetch(url, {
        method: "PUT",
        body: bytes as BodyInit,
        headers: { "content-type": "application/octet-stream" },
      })
    ).status;

  it("start checks multipart allowed, declared size and folder", async () => {
    const no = await start(await mint({ allow_multipart: false }), { file_name: "a.mp4", size: 10 });
    expect(no.status).toBe(403);
    expect(no.body).toMatchObject({ success: false, errorCode: "MULTIPART_NOT_ALLOWED" });
    const token = await mint({ max_file_size: 1000, folder: "clips" });
    const big = await start(token, { file_name: "a.mp4", size: 1001 });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ success: false, errorCode: "FILE_TOO_LARGE" });
    const away = await start(token, { file_name: "a.mp4", size: 10, folder: "../clips" });
    expect(away.status).toBe(400);
    const sibling = await start(token, { file_name: "a.mp4", size: 10, folder: "clips2" });
    expect(sibling.body).toMatchObject({ success: false, errorCode: "FOLDER_NOT_ALLOWED" });
  });

  it("a size lie (declared small, parts bigger) never becomes a file, and leaves nothing stored", async () => {
    const token = await mint({ max_file_size: 1000 });
    await leavesNothing(async () => {
      const session = (await start(token, { file_name: "small.mp4", size: 100 })).body as {
        session_id: string;
        parts: string[];
      };
      const status = await put(session.parts[0] as string, new Uint8Array(64 * 1024));
      expect(status).toBeGreaterThanOrEqual(400);
      const res = await complete(token, session.session_id);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false });
    });
  });

  it("a type lie is refused at complete, and removed", async () => {
    const token = await mint({ allowed_types: ["video/mp4"] });
    await leavesNothing(async () => {
      const session = (await start(token, { file_name: "clip.mp4", size: png.length })).body as {
        session_id: string;
        parts: string[];
      };
      expect(await put(session.parts[0] as string, png)).toBe(200);
      const res = await complete(token, session.session_id);
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ success: false, errorCode: "TYPE_NOT_ALLOWED" });
    });
  });

  it("counts against the token from start: a one-shot token starts one session, which makes one file", async () => {
    const token = await mint();
    const first = (await start(token, { file_name: "one.png", size: png.length, format: "image/png" }))
      .body as { session_id: string; parts: string[] };
    expect(await put(first.parts[0] as string, png)).toBe(200);
    await leavesNothing(async () => {
      const res = await start(token, { file_name: "two.png", size: png.length, format: "image/png" });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, errorCode: "TOKEN_EXHAUSTED" });
    });
    expect((await complete(token, first.session_id)).status).toBe(200);
  });
});
