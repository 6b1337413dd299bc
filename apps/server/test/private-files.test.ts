// Private files: never served at their plain URL or any variant of it; served through signed
// URLs (upload response, endpoint 21), which fail like a missing file when wrong, expired, or for
// another path, transform or file (a later file at the same path); privacy set at upload, forced
// by a policy, changed by PATCH.
import { createHmac, randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signDelivery } from "../src/signing/delivery-signature.js";
import { WEBHOOK_JOB_KIND } from "../src/webhooks/delivery.js";
import { addEndpoint } from "../src/webhooks/endpoints.js";
import { complete, putPart, start } from "./multipart-helpers.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { solid } from "./support/test-images.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

let t: TestApp;
let png: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  png = await solid(400, 300, { r: 10, g: 200, b: 10 }, "png");
});
afterAll(async () => {
  await t?.close();
});

/** Path and query of a delivery URL, for inject. */
function local(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

async function uploadPrivate(name: string, fields: Record<string, string> = {}) {
  const res = await directUpload(
    t,
    { file_name: name, is_private: "true", ...fields },
    { content: png, type: "image/png" },
  );
  const file = uploaded(res);
  return { ...file, thumbnail: file.thumbnail as string };
}

async function signedUrl(fileNo: string, body: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: "POST",
    url: `/api/v1/files/${fileNo}/signed-url`,
    headers: { "x-api-key": t.keys.private },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { url: string; expires_at: string };
}

const get = (path: string) => t.app.inject({ method: "GET", url: path });
const MISSING = { error: "File not found" };

describe("a private file", () => {
  it("is refused at its plain URL and every variant, exactly like a missing file", async () => {
    const file = await uploadPrivate("secret.png");
    expect(file.is_private).toBe(true);
    const plain = file.url.split("?")[0] as string;
    const ws = t.workspace.workspaceNo;
    for (const path of [
      local(plain),
      `/assets/${ws}/w_100/${file.path}`,
      `/assets/${ws}/w_256,h_256,c_limit,f_webp/${file.path}`,
      `/assets/${ws}/r_0/${file.path}`,
    ]) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toEqual(MISSING);
    }
    const missing = await get(`/assets/${ws}/no-such-file.png`);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe((await get(local(plain))).body);
  });

  it("is served through its signed upload URL and thumbnail, with Cache-Control private", async () => {
    const file = await uploadPrivate("signed.png");
    expect(file.url).toMatch(/\?exp=\d+&sig=[0-9a-f]{8}\.[\w-]+$/);
    const res = await get(local(file.url));
    expect(res.statusCode).toBe(200);
    expect(Buffer.compare(res.rawPayload, png)).toBe(0);
    expect(res.headers["cache-control"]).toMatch(/^private, max-age=(3[0-5]\d\d|3600)$/);
    const thumb = await get(local(file.thumbnail));
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers["content-type"]).toBe("image/webp");
    expect(thumb.headers["cache-control"]).toMatch(/^private, /);
  });

  it("serves a signed variant, and nothing the signature does not cover", async () => {
    const file = await uploadPrivate("variant.png");
    const { url } = await signedUrl(file.file_no, { transform: "w_100", expires_in: 600 });
    const res = await get(local(url));
    expect(res.statusCode).toBe(200);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(100);
    const { search, pathname } = new URL(url);
    const other = await uploadPrivate("other.png");
    const forged = [
      // another transform with the same signature
      `${pathname.replace("/w_100/", "/w_200/")}${search}`,
      // another file with the same signature
      `${pathname.replace(file.path, other.path)}${search}`,
      // the plain file with the variant's signature
      `${pathname.replace("/w_100/", "/")}${search}`,
      // a later expiry
      `${pathname}${search.replace(/exp=(\d+)/, (_m, exp: string) => `exp=${Number(exp) + 60}`)}`,
      // a flipped signature byte
      `${pathname}${search.slice(0, -1)}${search.endsWith("A") ? "B" : "A"}`,
      // an unknown key id
      `${pathname}${search.replace(/sig=[0-9a-f]{8}/, "sig=00000000")}`,
      // sig without exp, exp without sig
      `${pathname}?sig=${new URLSearchParams(search).get("sig")}`,
      `${pathname}?exp=${new URLSearchParams(search).get("exp")}`,
    ];
    for (const path of forged) {
      const bad = await get(path);
      expect(bad.statusCode, path).toBe(404);
      expect(bad.json()).toEqual(MISSING);
    }
  });

  it("an expired signature looks like a missing file", async () => {
    const file = await uploadPrivate("expired.png");
    const query = signDelivery(
      t.config.urlSigning,
      { workspaceNo: t.workspace.workspaceNo, fileId: file.id, path: file.path, transform: "" },
      new Date(Date.now() - 1000),
    );
    const res = await get(`/assets/${t.workspace.workspaceNo}/${file.path}?${query}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(MISSING);
  });

  it("a signature from another workspace's URL does not open this one", async () => {
    const file = await uploadPrivate("cross.png");
    const query = signDelivery(
      t.config.urlSigning,
      { workspaceNo: t.workspace2.workspaceNo, fileId: file.id, path: file.path, transform: "" },
      new Date(Date.now() + 60_000),
    );
    expect((await get(`/assets/${t.workspace.workspaceNo}/${file.path}?${query}`)).statusCode).toBe(404);
  });

  it("PATCH makes it public and private again; the details say which, signed when private", async () => {
    const file = await uploadPrivate("toggle.png");
    const plain = `/assets/${t.workspace.workspaceNo}/${file.path}`;
    const patch = (isPrivate: unknown) =>
      t.app.inject({
        method: "PATCH",
        url: `/api/v1/files/${file.file_no}`,
        headers: { "x-api-key": t.keys.private },
        payload: { is_private: isPrivate },
      });
    const jobsBefore = await t.app.db.job.count({ where: { kind: WEBHOOK_JOB_KIND } });
    const pub = await patch(false);
    expect(pub.statusCode).toBe(200);
    // The endpoint registered below hears each later change as file.updated.
    const jobs = await t.app.db.job.findMany({ where: { kind: WEBHOOK_JOB_KIND }, skip: jobsBefore });
    expect(jobs).toEqual([]);
    await addEndpoint(t.app.db, {
      workspaceId: t.workspace.id,
      url: "https://hooks.example.com/x",
      eventTypes: ["file.updated"],
    });
    expect((await patch(false)).statusCode).toBe(200);
    const events = (await t.app.db.job.findMany({ where: { kind: WEBHOOK_JOB_KIND } })).map(
      (job) =>
        (job.payload as { event: { type: string; data: { file_no: string; is_private: boolean } } }).event,
    );
    expect(events.filter((event) => event.type === "file.updated").map((event) => event.data)).toContainEqual(
      expect.objectContaining({ file_no: file.file_no, is_private: false }),
    );
    expect(pub.json().data.is_private).toBe(false);
    expect(pub.json().data.url).not.toContain("?");
    expect((await get(plain)).statusCode).toBe(200);
    const priv = await patch(true);
    expect(priv.json().data.is_private).toBe(true);
    expect(priv.json().data.url).toContain("sig=");
    expect((await get(plain)).statusCode).toBe(404);
    expect((await patch("yes")).statusCode).toBe(400);
    const publicKey = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/files/${file.file_no}`,
      headers: { "x-api-key": t.keys.public },
      payload: { is_private: false },
    });
    expect(publicKey.statusCode).toBe(403);
    const foreign = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/files/${file.file_no}`,
      headers: { "x-api-key": t.keys.private2 },
      payload: { is_private: false },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it("a public file opened with a wrong signature is a 404 too; without one it stays public", async () => {
    const res = await directUpload(t, { file_name: "open.png" }, { content: png, type: "image/png" });
    const file = uploaded(res);
    expect(file.is_private).toBe(false);
    expect((await get(local(file.url))).headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await get(`${local(file.url)}?exp=9999999999&sig=00000000.x`)).statusCode).toBe(404);
  });
});

describe("privacy on every upload path", () => {
  it("multipart start with is_private makes the completed file private", async () => {
    const bytes = randomBytes(1000);
    const session = await start(t, { file_name: "big.bin", size: bytes.length, is_private: true });
    for (const url of session.parts) expect((await putPart(t, url, bytes)).statusCode).toBe(200);
    const done = await complete(t, session.session_id);
    expect(done.url).toContain("sig=");
    expect((await get(local(done.url))).statusCode).toBe(200);
    expect((await get(local(done.url.split("?")[0] as string))).statusCode).toBe(404);
  });

  it("a token whose policy says private makes the file private whatever the upload asks", async () => {
    const mint = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads/tokens",
      headers: { "x-api-key": t.keys.private },
      payload: { private: true },
    });
    expect(mint.statusCode, mint.body).toBe(200);
    const res = await directUpload(
      t,
      { file_name: "forced.png", is_private: "false" },
      { content: png, type: "image/png" },
      { key: mint.json().token },
    );
    expect(uploaded(res).is_private).toBe(true);
  });

  it("a public key's private upload is answered with plain URLs: it is never handed a signed one", async () => {
    const res = await directUpload(
      t,
      { file_name: "from-the-page.png", is_private: "true" },
      { content: png, type: "image/png" },
      { key: t.keys.public },
    );
    const file = uploaded(res);
    expect(file.is_private).toBe(true);
    for (const url of [file.url, file.thumbnail as string]) {
      expect(url).not.toContain("sig=");
      expect((await get(local(url))).statusCode).toBe(404);
    }
    // The owner still reads it through a signed URL minted with the private key.
    const minted = await signedUrl(file.file_no);
    expect((await get(local(minted.url))).statusCode).toBe(200);
  });
});

describe("signing keys", () => {
  it("URLs signed before a rotation keep working with the previous key, and stop without it", async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const withKeys = (key: Buffer, previous?: Buffer) =>
      createTestApp({
        config: { urlSigningKey: key, ...(previous ? { urlSigningKeyPrevious: previous } : {}) },
      });
    const before = await withKeys(oldKey);
    const after = await withKeys(newKey, oldKey);
    const later = await withKeys(newKey);
    try {
      expect(before.config.urlSigning.current.id).toBe(after.config.urlSigning.previous?.id);
      const ids = new Map<TestApp, string>();
      for (const app of [before, after, later]) {
        const res = await directUpload(
          app,
          { file_name: "x.png", is_private: "true" },
          { content: png, type: "image/png" },
        );
        expect(res.statusCode).toBe(200);
        ids.set(app, uploaded(res).id);
      }
      // Each app seeds its own workspace and file; sign each one's with the old key.
      const resign = (app: TestApp) =>
        `/assets/${app.workspace.workspaceNo}/x.png?${signDelivery(
          before.config.urlSigning,
          {
            workspaceNo: app.workspace.workspaceNo,
            fileId: ids.get(app) as string,
            path: "x.png",
            transform: "",
          },
          new Date(Date.now() + 60_000),
        )}`;
      expect((await before.app.inject({ url: resign(before) })).statusCode).toBe(200);
      expect((await after.app.inject({ url: resign(after) })).statusCode).toBe(200);
      expect((await later.app.inject({ url: resign(later) })).statusCode).toBe(404);
    } finally {
      await Promise.all([before.close(), after.close(), later.close()]);
    }
  });
});

describe("a signed URL names the file it was issued for, not its path", () => {
  const folder = "bound";
  const api = (method: "DELETE" | "PATCH", url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: { "x-api-key": t.keys.private }, ...(payload ? { payload } : {}) });
  /** A private upload at `bound/{name}` with the public key, as a visitor could make one. */
  const uploadAs = async (name: string, content: Buffer) => {
    const res = await directUpload(
      t,
      { file_name: name, folder, is_private: "true" },
      { content, type: "image/png" },
      { key: t.keys.public },
    );
    return uploaded(res);
  };
  const expectMissing = async (url: string) => {
    const res = await get(local(url));
    expect(res.statusCode, url).toBe(404);
    expect(res.json()).toEqual(MISSING);
  };

  it("a file deleted and replaced at its path, by other bytes or the same ones, never honours the old links", async () => {
    const first = await uploadAs("a.png", png);
    // A public key is answered with plain URLs; the owner mints the links with the private key.
    const links = [
      (await signedUrl(first.file_no)).url,
      (await signedUrl(first.file_no, { transform: "w_256,h_256,c_limit,f_webp" })).url,
      (await signedUrl(first.file_no, { expires_in: 7 * 24 * 3600 })).url,
      (await signedUrl(first.file_no, { transform: "w_100", expires_in: 600 })).url,
    ];
    for (const url of links) expect((await get(local(url))).statusCode, url).toBe(200);
    expect((await api("DELETE", `/api/v1/files/${first.file_no}`)).statusCode).toBe(200);

    const other = await solid(40, 30, { r: 250, g: 0, b: 0 }, "png");
    for (const content of [other, png]) {
      const next = await uploadAs("a.png", content);
      expect(next.path).toBe(first.path);
      for (const url of links) await expectMissing(url);
      const fresh = await get(local((await signedUrl(next.file_no)).url));
      expect(fresh.statusCode).toBe(200);
      expect(Buffer.compare(fresh.rawPayload, content)).toBe(0);
      expect((await api("DELETE", `/api/v1/files/${next.file_no}`)).statusCode).toBe(200);
    }
  });

  it("a file renamed away leaves its old links dead, even after a new upload at the old path", async () => {
    const file = await uploadAs("moved.png", png);
    const { url } = await signedUrl(file.file_no, { expires_in: 600 });
    const renamed = await api("PATCH", `/api/v1/files/${file.file_no}/rename`, { name: "elsewhere.png" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await expectMissing(url);
    const squatter = await uploadAs("moved.png", png);
    expect(squatter.path).toBe(file.path);
    await expectMissing(url);
    expect((await get(local((await signedUrl(squatter.file_no)).url))).statusCode).toBe(200);
    expect((await get(local((await signedUrl(file.file_no)).url))).statusCode).toBe(200);
  });

  it("a v1 signature (path, transform and expiry, no file id) is refused", async () => {
    const file = await uploadPrivate("v1.png");
    const exp = Math.floor(Date.now() / 1000) + 600;
    const key = t.config.urlSigning.current;
    const v1 = createHmac("sha256", key.secret)
      .update(`v1\n${t.workspace.workspaceNo}\n${file.path}\n\n${exp}`)
      .digest("base64url");
    await expectMissing(`${file.url.split("?")[0]}?exp=${exp}&sig=${key.id}.${v1}`);
    expect((await get(local(file.url))).statusCode).toBe(200);
  });
});
