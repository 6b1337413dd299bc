// What public credentials (public keys, upload tokens) may make a store-time transform do
// (issue #30), in-process: the size cap holds for the stored output, a policy can forbid
// transforms, so does strict mode, the pixel caps hold as at delivery, and `is_duplicate` tells them
// nothing about files they cannot read. Remote fetches go to a server this file starts on
// 127.0.0.1 (the app trusts 127.0.0.0/8).
import { uploadErrorSchema, uploadTokenResponseSchema } from "@trove/schema";
import type { LightMyRequestResponse } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/keys/api-keys.js";
import { setStrictTransforms } from "../src/transforms/named-transforms.js";
import { resolvePublicKeyPolicy } from "../src/uploads/public-key-policy-config.js";
import { STRICT_STORE_TIME_MESSAGE } from "../src/uploads/store-time-transform.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { forbidSystemDns, startTestServer, type TestServer } from "./support/network-doubles.js";
import { pattern } from "./support/test-images.js";
import { directUpload, leavesNothing, listObjects, remoteUpload, uploaded } from "./uploads-helpers.js";

let t: TestApp;
let server: TestServer;
let restoreDns: () => void = () => {};
/** A 64×48 JPEG of under 1 KB; w_2000,h_2000,c_fill,fl_upscale makes it a JPEG of about 90 KB. */
let jpeg: Buffer;

beforeAll(async () => {
  restoreDns = forbidSystemDns();
  jpeg = await sharp(await pattern(64, 48))
    .jpeg()
    .toBuffer();
  server = await startTestServer((_req, res) =>
    res.writeHead(200, { "content-type": "image/jpeg" }).end(jpeg),
  );
  t = await createTestApp({ config: { trustedRanges: "127.0.0.0/8" } });
});

afterAll(async () => {
  await t?.close();
  await server?.close();
  restoreDns();
});

async function mint(body: Record<string, unknown>): Promise<{ token: string; id: string }> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/uploads/tokens",
    headers: { "x-api-key": t.keys.private },
    payload: body,
  });
  if (res.statusCode !== 200) throw new Error(`mint: ${res.statusCode} ${res.body}`);
  const { token } = uploadTokenResponseSchema.parse(res.json());
  const row = await t.app.db.uploadToken.findFirstOrThrow({ where: { prefix: token.slice(0, 17) } });
  return { token, id: row.id };
}

function expectRefusal(res: LightMyRequestResponse, status: number, errorCode: string): string {
  expect(res.statusCode, res.body).toBe(status);
  const body = uploadErrorSchema.parse(res.json());
  expect(body.errorCode).toBe(errorCode);
  return body.message;
}

describe("max_file_size holds for the stored output", () => {
  it("refuses a 20,000-byte token's upscaled JPEG with 413, stores nothing and spends nothing", async () => {
    expect(jpeg.length).toBeLessThan(20_000);
    const { token, id } = await mint({ max_file_size: 20_000, max_files: 1, allow_remote: true });
    const fill = "w_2000,h_2000,c_fill,fl_upscale";
    await leavesNothing(t, async () => {
      // Held in memory (transform before the file), stored first (after it), and fetched.
      const before = await directUpload(
        t,
        { file_name: "a.jpg", transform: fill },
        { content: jpeg },
        { key: token },
      );
      expect(expectRefusal(before, 413, "FILE_TOO_LARGE")).toMatch(
        /transformed file would be \d+ bytes.*20000/,
      );
      const after = await directUpload(
        t,
        { file_name: "a.jpg", transform: "w_4000,h_4000,fl_upscale" },
        { content: jpeg },
        { key: token, fileFirst: true },
      );
      expectRefusal(after, 413, "FILE_TOO_LARGE");
      const remote = await remoteUpload(t, { remote_url: `${server.origin}/a.jpg`, transform: fill }, token);
      expectRefusal(remote, 413, "FILE_TOO_LARGE");
    });
    expect((await t.app.db.uploadToken.findUniqueOrThrow({ where: { id } })).usedFiles).toBe(0);
    // The one file the token may create is still there to make, within the cap.
    const small = uploaded(
      await directUpload(t, { file_name: "s.jpg", transform: "w_32" }, { content: jpeg }, { key: token }),
    );
    expect(small.size).toBeLessThanOrEqual(20_000);
  });

  it("holds a public key's own policy and the server's upload cap the same way", async () => {
    const { key } = await createApiKey(t.app.db, {
      workspaceId: t.workspace.id,
      type: "public",
      policy: { max_file_size: 20_000 },
    });
    await leavesNothing(t, async () => {
      const res = await directUpload(
        t,
        { file_name: "k.jpg", transform: "w_2000,h_2000,c_fill,fl_upscale" },
        { content: jpeg },
        { key },
      );
      expectRefusal(res, 413, "FILE_TOO_LARGE");
    });
    const capped = await createTestApp({ config: { maxUploadBytes: 20_000 } });
    try {
      const res = await directUpload(
        capped,
        { file_name: "p.jpg", transform: "w_2000,h_2000,c_fill,fl_upscale" },
        { content: jpeg },
      );
      expectRefusal(res, 413, "FILE_TOO_LARGE");
      expect(await capped.app.db.file.count()).toBe(0);
      expect(await listObjects(capped.storageDir)).toEqual([]);
    } finally {
      await capped.close();
    }
  });

  it("keeps the pixel cap on upscales at store time: w_5000,h_5000,fl_upscale of a small image is 400", async () => {
    const { token } = await mint({ max_files: 1 });
    await leavesNothing(t, async () => {
      const res = await directUpload(
        t,
        { file_name: "u.jpg", transform: "w_5000,h_5000,fl_upscale" },
        { content: jpeg },
        { key: token },
      );
      expect(expectRefusal(res, 400, "IMAGE_TOO_LARGE")).toContain("images larger than their source");
    });
  });
});

describe("allow_transforms: false", () => {
  it("refuses a token's store-time transform with 403 TRANSFORM_NOT_ALLOWED on every path, nothing stored", async () => {
    const { token, id } = await mint({ allow_transforms: false, allow_remote: true, max_files: 2 });
    await leavesNothing(t, async () => {
      for (const fileFirst of [false, true]) {
        const res = await directUpload(
          t,
          { file_name: "t.jpg", transform: "w_10" },
          { content: jpeg },
          { key: token, fileFirst },
        );
        expectRefusal(res, 403, "TRANSFORM_NOT_ALLOWED");
      }
      const before = server.requests.length;
      const remote = await remoteUpload(
        t,
        { remote_url: `${server.origin}/t.jpg`, transform: "w_10" },
        token,
      );
      expectRefusal(remote, 403, "TRANSFORM_NOT_ALLOWED");
      expect(server.requests.length).toBe(before);
    });
    expect((await t.app.db.uploadToken.findUniqueOrThrow({ where: { id } })).usedFiles).toBe(0);
    // Without a transform (or with a blank one, as forms send) the upload is fine.
    uploaded(await directUpload(t, { file_name: "t.jpg", transform: "" }, { content: jpeg }, { key: token }));
  });

  it("is a public key policy field too, and TROVE_PUBLIC_KEY_ALLOW_TRANSFORMS sets the default", async () => {
    const { key } = await createApiKey(t.app.db, {
      workspaceId: t.workspace.id,
      type: "public",
      policy: { allow_transforms: false },
    });
    const res = await directUpload(t, { file_name: "k.jpg", transform: "w_10" }, { content: jpeg }, { key });
    expectRefusal(res, 403, "TRANSFORM_NOT_ALLOWED");
    expect(resolvePublicKeyPolicy({ TROVE_PUBLIC_KEY_ALLOW_TRANSFORMS: "false" })).toEqual({
      allow_transforms: false,
    });
    expect(resolvePublicKeyPolicy({ TROVE_PUBLIC_KEY_ALLOW_TRANSFORMS: "true" })).toEqual({
      allow_transforms: true,
    });
  });
});

describe("strict mode at store time", () => {
  it("refuses a public key's or a token's transform with 403 in a strict workspace; private keys as before", async () => {
    await setStrictTransforms(t.app.db, t.workspace.id, true);
    try {
      const { token } = await mint({ max_files: 5 });
      for (const key of [t.keys.public, token]) {
        await leavesNothing(t, async () => {
          const res = await directUpload(
            t,
            { file_name: "s.jpg", transform: "w_20" },
            { content: jpeg },
            { key },
          );
          expect(expectRefusal(res, 403, "TRANSFORM_NOT_ALLOWED")).toBe(STRICT_STORE_TIME_MESSAGE);
        });
        // Without a transform the upload is fine.
        uploaded(await directUpload(t, { file_name: "n.jpg" }, { content: jpeg }, { key }));
      }
      const plain = uploaded(
        await directUpload(t, { file_name: "p.jpg", transform: "w_20" }, { content: jpeg }),
      );
      expect(plain.width).toBe(20);
    } finally {
      await setStrictTransforms(t.app.db, t.workspace.id, false);
    }
    // Outside strict mode, a public key's plain transform is fine.
    const free = uploaded(
      await directUpload(
        t,
        { file_name: "f.jpg", transform: "w_20" },
        { content: jpeg },
        { key: t.keys.public },
      ),
    );
    expect(free.width).toBe(20);
  });
});

describe("is_duplicate", () => {
  it("is always false for a public key or a token; a private key gets the real answer", async () => {
    const secretBytes = await sharp(await pattern(30, 20))
      .png()
      .toBuffer();
    uploaded(
      await directUpload(t, { file_name: "secret.png", is_private: "true" }, { content: secretBytes }),
    );
    const { token } = await mint({ max_files: 1 });
    for (const key of [t.keys.public, token]) {
      const res = uploaded(
        await directUpload(
          t,
          { file_name: "probe.png", webhook_url: "http://127.0.0.1:9/hook" },
          { content: secretBytes },
          { key },
        ),
      );
      expect(res.is_duplicate).toBe(false);
      // Nor does the upload's own webhook say otherwise (workers are off: the job waits).
      const job = await t.app.db.job.findFirstOrThrow({
        where: { kind: "webhook", payload: { path: ["event", "data", "id"], equals: res.id } },
      });
      expect(job.payload).toMatchObject({ event: { data: { is_duplicate: false } } });
    }
    expect(
      uploaded(await directUpload(t, { file_name: "again.png" }, { content: secretBytes })).is_duplicate,
    ).toBe(true);
  });
});
