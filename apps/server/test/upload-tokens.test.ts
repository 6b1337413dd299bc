// Upload tokens (endpoint 19 and the token credential on endpoints 1, 2, 3, 5) and upload
// policies on public keys, in-process. Remote fetches go to a server this file starts on
// 127.0.0.1 (the app trusts 127.0.0.0/8).
import { uploadErrorSchema, uploadTokenResponseSchema } from "@trove/schema";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/keys/api-keys.js";
import { completeRaw, putPart, startRaw, testBytes } from "./multipart-helpers.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { forbidSystemDns, startTestServer, type TestServer } from "./support/network-doubles.js";
import { solid } from "./support/test-images.js";
import {
  directUpload,
  listObjects,
  mintUploadToken,
  PDF,
  remoteUpload,
  uploaded,
} from "./uploads-helpers.js";

let t: TestApp;
let png: Buffer;
let server: TestServer;
let restoreDns: () => void = () => {};

beforeAll(async () => {
  restoreDns = forbidSystemDns();
  png = await solid(32, 24, { r: 10, g: 20, b: 30 }, "png");
  server = await startTestServer((_req, res) => res.writeHead(200, { "content-type": "video/mp4" }).end(png));
  t = await createTestApp({ config: { trustedRanges: "127.0.0.0/8" } });
});

afterAll(async () => {
  await t?.close();
  await server?.close();
  restoreDns();
});

const mint = (body: Record<string, unknown> = {}, key = t.keys.private) => mintUploadToken(t, body, key);

function expectRefusal(res: LightMyRequestResponse, status: number, errorCode: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(uploadErrorSchema.parse(res.json()).errorCode).toBe(errorCode);
}

async function fileCount(workspaceId: string): Promise<number> {
  return t.app.db.file.count({ where: { workspaceId } });
}

describe("minting (endpoint 19)", () => {
  it("returns the token once, with the policy as stored and the defaults written out", async () => {
    const minted = await mint({ folder: "/avatars/", allowed_types: ["image/*"], expires_in: 60 });
    expect(minted.token).toMatch(/^trove_ut_[0-9A-Za-z]{32}$/);
    expect(minted.max_files).toBe(1);
    expect(minted.policy).toEqual({
      folder: "avatars",
      folder_match: "exact",
      allowed_types: ["image/*"],
      allow_remote: false,
      allow_multipart: true,
    });
    const left = Date.parse(minted.expires_at) - Date.now();
    expect(left).toBeGreaterThan(50_000);
    expect(left).toBeLessThanOrEqual(60_000);
    const row = await t.app.db.uploadToken.findFirstOrThrow({ where: { prefix: minted.token.slice(0, 17) } });
    expect(row.hash).not.toContain(minted.token.slice(9));
  });

  it("needs a private key: a public key or a token gets 403", async () => {
    const { token } = await mint();
    for (const key of [t.keys.public, token]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/uploads/tokens",
        headers: { authorization: `Bearer ${key}` },
        payload: {},
      });
      expectRefusal(res, 403, "FORBIDDEN");
    }
  });

  it("refuses folders the upload name rules refuse, and bad limits", async () => {
    for (const body of [
      { folder: "a/../b" },
      { folder: "x\u202Egnp.exe" },
      { expires_in: 86_401 },
      { max_files: 0 },
    ]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/uploads/tokens",
        headers: { "x-api-key": t.keys.private },
        payload: body,
      });
      expectRefusal(res, 400, "VALIDATION_FAILED");
    }
  });
});

describe("direct uploads with a token", () => {
  it("lands in the token's folder with its fixed fields, once", async () => {
    const { token } = await mint({ folder: "avatars", tags: ["avatar"], metadata: { user: "u1" } });
    const body = uploaded(
      await directUpload(
        t,
        { file_name: "me.png", tags: "admin", metadata: '{"user":"root"}' },
        { content: png },
        { key: token },
      ),
    );
    expect(body.path).toBe("avatars/me.png");
    expect(body.tags).toEqual(["avatar"]);
    expect(body.metadata).toEqual({ user: "u1" });
    const again = await directUpload(t, { file_name: "me2.png" }, { content: png }, { key: token });
    expectRefusal(again, 403, "TOKEN_EXHAUSTED");
  });

  it("judges the type by the bytes: PNG named .mp4 under video/mp4 is refused, nothing stored", async () => {
    const { token } = await mint({ allowed_types: ["video/mp4"] });
    const before = await listObjects(t.storageDir);
    const res = await directUpload(
      t,
      { file_name: "clip.mp4" },
      { content: png, type: "video/mp4" },
      { key: token },
    );
    expectRefusal(res, 415, "TYPE_NOT_ALLOWED");
    expect(await listObjects(t.storageDir)).toEqual(before);
    // The refusal did not spend the token.
    const pdfToken = await mint({ allowed_types: ["application/pdf"] });
    uploaded(await directUpload(t, { file_name: "doc.bin" }, { content: PDF }, { key: pdfToken.token }));
  });

  it("refuses a file over max_file_size while streaming with 413, nothing stored", async () => {
    const { token } = await mint({ max_file_size: 1000 });
    const before = await listObjects(t.storageDir);
    const res = await directUpload(t, { file_name: "big.bin" }, { content: testBytes(5000) }, { key: token });
    expectRefusal(res, 413, "FILE_TOO_LARGE");
    expect(await listObjects(t.storageDir)).toEqual(before);
  });

  it("refuses folders outside the policy, by whole segments", async () => {
    const { token } = await mint({ folder: "avatars", folder_match: "prefix", max_files: 10 });
    for (const folder of ["avatars2", "other", "avatars2/u1"]) {
      for (const fileFirst of [false, true]) {
        const res = await directUpload(
          t,
          { file_name: "a.png", folder },
          { content: png },
          { key: token, fileFirst },
        );
        expectRefusal(res, 403, "FOLDER_NOT_ALLOWED");
      }
    }
    const dotDot = await directUpload(
      t,
      { file_name: "a.png", folder: "avatars/../x" },
      { content: png },
      { key: token },
    );
    expectRefusal(dotDot, 400, "VALIDATION_FAILED");
    const inside = uploaded(
      await directUpload(t, { file_name: "a.png", folder: "avatars/u1" }, { content: png }, { key: token }),
    );
    expect(inside.path).toBe("avatars/u1/a.png");
  });

  it("answers an expired token 401 TOKEN_EXPIRED, a tampered one 401 UNAUTHORIZED", async () => {
    const { token } = await mint();
    await t.app.db.uploadToken.updateMany({
      where: { prefix: token.slice(0, 17) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await directUpload(t, { file_name: "a.png" }, { content: png }, { key: token });
    expectRefusal(expired, 401, "TOKEN_EXPIRED");
    expect(expired.json().message).toMatch(/expired/);
    const fresh = await mint();
    const last = fresh.token.at(-1) === "a" ? "b" : "a";
    const tampered = await directUpload(
      t,
      { file_name: "a.png" },
      { content: png },
      { key: fresh.token.slice(0, -1) + last },
    );
    expectRefusal(tampered, 401, "UNAUTHORIZED");
  });

  it("stays in the minting key's workspace", async () => {
    const { token } = await mint({ max_files: 2 }, t.keys.private2);
    const before = await fileCount(t.workspace.id);
    const body = uploaded(await directUpload(t, { file_name: "w2.png" }, { content: png }, { key: token }));
    expect(body.url).toContain(`/${t.workspace2.workspaceNo}/`);
    expect(await fileCount(t.workspace.id)).toBe(before);
  });

  it("dies with its minting key", async () => {
    const { key, record } = await createApiKey(t.app.db, { workspaceId: t.workspace.id, type: "private" });
    const { token } = await mint({}, key);
    await t.app.db.apiKey.update({ where: { id: record.id }, data: { revokedAt: new Date() } });
    expectRefusal(
      await directUpload(t, { file_name: "a.png" }, { content: png }, { key: token }),
      401,
      "UNAUTHORIZED",
    );
  });
});

describe("remote uploads with a token", () => {
  it("are refused unless the token allows them, then the sniffed type still decides", async () => {
    const plain = await mint();
    const url = `${server.origin}/clip.mp4`;
    expectRefusal(await remoteUpload(t, { remote_url: url }, plain.token), 403, "REMOTE_NOT_ALLOWED");
    expect(server.requests).toHaveLength(0);
    const remote = await mint({ allow_remote: true, allowed_types: ["video/mp4"] });
    expectRefusal(await remoteUpload(t, { remote_url: url }, remote.token), 415, "TYPE_NOT_ALLOWED");
    const images = await mint({ allow_remote: true, allowed_types: ["image/*"] });
    uploaded(await remoteUpload(t, { remote_url: url }, images.token));
  });
});

describe("multipart uploads with a token", () => {
  it("checks multipart, declared size and folder at start", async () => {
    const no = await mint({ allow_multipart: false });
    let res = await startRaw(
      t,
      { file_name: "a.bin", size: 10, format: "application/octet-stream" },
      no.token,
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, errorCode: "MULTIPART_NOT_ALLOWED" });
    const small = await mint({ max_file_size: 100, folder: "in" });
    res = await startRaw(
      t,
      { file_name: "a.bin", size: 101, format: "application/octet-stream" },
      small.token,
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, errorCode: "FILE_TOO_LARGE" });
    res = await startRaw(
      t,
      { file_name: "a.bin", size: 10, format: "application/octet-stream", folder: "out" },
      small.token,
    );
    expect(res.json()).toMatchObject({ success: false, errorCode: "FOLDER_NOT_ALLOWED" });
  });

  it("checks the sniffed type at complete and removes the object", async () => {
    const { token } = await mint({ allowed_types: ["video/mp4"] });
    const res = await startRaw(t, { file_name: "clip.mp4", size: png.length, format: "video/mp4" }, token);
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json();
    expect((await putPart(t, session.parts[0], png)).statusCode).toBe(200);
    const before = await fileCount(t.workspace.id);
    const done = await completeRaw(t, session.session_id, token);
    expect(done.statusCode).toBe(415);
    expect(done.json()).toMatchObject({ success: false, errorCode: "TYPE_NOT_ALLOWED" });
    expect(await fileCount(t.workspace.id)).toBe(before);
    expect((await listObjects(t.storageDir)).some((key) => key.includes(session.session_id))).toBe(false);
  });

  it("spends the token at complete, and a repeated complete returns the same file", async () => {
    const { token } = await mint();
    const res = await startRaw(t, { file_name: "a.png", size: png.length, format: "image/png" }, token);
    const session = res.json();
    await putPart(t, session.parts[0], png);
    const first = await completeRaw(t, session.session_id, token);
    expect(first.statusCode, first.body).toBe(200);
    const second = await completeRaw(t, session.session_id, token);
    expect(second.json().data.file_no).toBe(first.json().data.file_no);
    expectRefusal(
      await directUpload(t, { file_name: "b.png" }, { content: png }, { key: token }),
      403,
      "TOKEN_EXHAUSTED",
    );
  });
});

describe("public keys with a policy", () => {
  it("enforce the key's own policy", async () => {
    const { key } = await createApiKey(t.app.db, {
      workspaceId: t.workspace.id,
      type: "public",
      policy: { allowed_types: ["image/*"], max_file_size: 2000, folder: "pub", allow_remote: false },
    });
    expectRefusal(
      await directUpload(t, { file_name: "d.pdf" }, { content: PDF }, { key }),
      415,
      "TYPE_NOT_ALLOWED",
    );
    expectRefusal(
      await remoteUpload(t, { remote_url: `${server.origin}/x.png` }, key),
      403,
      "REMOTE_NOT_ALLOWED",
    );
    const ok = uploaded(await directUpload(t, { file_name: "p.png" }, { content: png }, { key }));
    expect(ok.path).toBe("pub/p.png");
    // No count: a key's policy limits what, not how many.
    uploaded(await directUpload(t, { file_name: "p.png" }, { content: png }, { key }));
  });

  it("fall back to the server-wide default, and keys without either are unrestricted", async () => {
    const strict = await createTestApp({
      config: { publicKeyPolicy: { allowed_types: ["application/pdf"] } },
    });
    try {
      expectRefusal(
        await directUpload(strict, { file_name: "a.png" }, { content: png }, { key: strict.keys.public }),
        415,
        "TYPE_NOT_ALLOWED",
      );
      uploaded(
        await directUpload(strict, { file_name: "a.png" }, { content: png }, { key: strict.keys.private }),
      );
    } finally {
      await strict.close();
    }
    uploaded(await directUpload(t, { file_name: "free.pdf" }, { content: PDF }, { key: t.keys.public }));
  });
});

describe("rate limits", () => {
  it("count each token on its own, as a public credential", async () => {
    const limited = await createTestApp({ config: { rateLimit: { publicKeyAddressMax: 2 } } });
    try {
      const mintOn = async () => {
        const res = await limited.app.inject({
          method: "POST",
          url: "/api/v1/uploads/tokens",
          headers: { "x-api-key": limited.keys.private },
          payload: { max_files: 10 },
        });
        return uploadTokenResponseSchema.parse(res.json()).token;
      };
      const [first, second] = [await mintOn(), await mintOn()];
      const send = (key: string) => directUpload(limited, { file_name: "a.png" }, { content: png }, { key });
      expect((await send(first)).statusCode).toBe(200);
      expect((await send(first)).statusCode).toBe(200);
      expect((await send(first)).statusCode).toBe(429);
      // Another token of the same key, and the public key, have budgets of their own.
      expect((await send(second)).statusCode).toBe(200);
      expect((await send(limited.keys.public)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
