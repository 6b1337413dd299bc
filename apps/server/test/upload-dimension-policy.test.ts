// The upload policy's pixel and aspect-ratio limits (issue #35 part 3), in-process: every upload
// path (direct, remote URL from a server this file starts on 127.0.0.1, multipart completion) is
// judged by the one ingest step, the EXIF orientation counts, files that are not images pass, and
// a policy whose minimum exceeds its maximum is refused when it is made.
import { uploadErrorSchema } from "@trove/schema";
import type { LightMyRequestResponse } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/keys/api-keys.js";
import { admin, createAdminTestApp } from "./admin-support.js";
import { completeRaw, start, uploadAll } from "./multipart-helpers.js";
import type { TestApp } from "./support/index.js";
import { forbidSystemDns, startTestServer, type TestServer } from "./support/network-doubles.js";
import { orientedJpeg, pattern } from "./support/test-images.js";
import {
  directUpload,
  leavesNothing,
  mintUploadToken,
  PDF,
  remoteUpload,
  uploaded,
} from "./uploads-helpers.js";

let t: TestApp;
let server: TestServer;
let restoreDns: () => void = () => {};
const images = new Map<string, Buffer>();

const png = async (width: number, height: number) =>
  sharp(await pattern(width, height))
    .png()
    .toBuffer();

beforeAll(async () => {
  restoreDns = forbidSystemDns();
  images.set("/wide.png", await png(500, 100));
  images.set("/fits.png", await png(300, 200));
  server = await startTestServer((req, res) => {
    const image = images.get(req.url ?? "");
    if (!image) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/png" }).end(image);
  });
  t = await createAdminTestApp({ config: { trustedRanges: "127.0.0.0/8" } });
});

afterAll(async () => {
  await t?.close();
  await server?.close();
  restoreDns();
});

/** 100–400 px wide, at most 400 px high. */
const LIMITS = { min_width: 100, max_width: 400, max_height: 400 };

function expectDimensionRefusal(res: LightMyRequestResponse): string {
  expect(res.statusCode, res.body).toBe(422);
  const body = uploadErrorSchema.parse(res.json());
  expect(body.errorCode).toBe("IMAGE_DIMENSIONS_NOT_ALLOWED");
  return body.message;
}

describe("image dimension limits", () => {
  it("refuse a direct upload outside them with 422 naming the limit and the size; store what fits", async () => {
    const { token } = await mintUploadToken(t, { ...LIMITS, max_files: 10 });
    await leavesNothing(t, async () => {
      const small = await directUpload(
        t,
        { file_name: "s.png" },
        { content: await png(50, 40) },
        { key: token },
      );
      expect(expectDimensionRefusal(small)).toBe(
        "The image is 50×40 px; this credential accepts images at least 100 px wide",
      );
      const tall = await directUpload(
        t,
        { file_name: "t.png" },
        { content: await png(200, 500) },
        { key: token },
      );
      expect(expectDimensionRefusal(tall)).toContain("at most 400 px high");
      // The file first, held in memory: judged the same way.
      const held = await directUpload(
        t,
        { file_name: "w.png" },
        { content: await png(401, 10) },
        { key: token, fileFirst: true },
      );
      expect(expectDimensionRefusal(held)).toContain(
        "401×10 px; this credential accepts images at most 400 px wide",
      );
    });
    const fits = uploaded(
      await directUpload(t, { file_name: "f.png" }, { content: await png(400, 400) }, { key: token }),
    );
    expect([fits.width, fits.height]).toEqual([400, 400]);
  });

  it("hold for a store-time transform's output too", async () => {
    const { token } = await mintUploadToken(t, { ...LIMITS, max_files: 2 });
    await leavesNothing(t, async () => {
      const res = await directUpload(
        t,
        { file_name: "u.png", transform: "w_800,fl_upscale" },
        { content: await png(200, 100) },
        { key: token },
      );
      expect(expectDimensionRefusal(res)).toContain("The transformed image is 800×400 px");
    });
    const shrunk = uploaded(
      await directUpload(
        t,
        { file_name: "d.png", transform: "w_150" },
        { content: await png(200, 100) },
        { key: token },
      ),
    );
    expect([shrunk.width, shrunk.height]).toEqual([150, 75]);
  });

  it("refuse a remote-URL upload fetched from a loopback server", async () => {
    const { token } = await mintUploadToken(t, { ...LIMITS, allow_remote: true, max_files: 2 });
    await leavesNothing(t, async () => {
      const res = await remoteUpload(t, { remote_url: `${server.origin}/wide.png` }, token);
      expect(expectDimensionRefusal(res)).toContain(
        "500×100 px; this credential accepts images at most 400 px wide",
      );
    });
    const fits = uploaded(await remoteUpload(t, { remote_url: `${server.origin}/fits.png` }, token));
    expect([fits.width, fits.height]).toEqual([300, 200]);
  });

  it("refuse a multipart upload at completion, in the multipart envelope, and spend nothing", async () => {
    const { token } = await mintUploadToken(t, { ...LIMITS, max_files: 1 });
    const data = await png(20, 600);
    const session = await start(t, { file_name: "m.png", format: "image/png", size: data.length }, token);
    await uploadAll(t, session, data);
    const res = await completeRaw(t, session.session_id, token);
    // The multipart group's policy refusal: { success: false, error: message, errorCode }.
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ success: false, errorCode: "IMAGE_DIMENSIONS_NOT_ALLOWED" });
    expect(res.json().error).toContain("20×600 px; this credential accepts images at least 100 px wide");
    expect(await t.app.db.file.count({ where: { name: "m.png" } })).toBe(0);
    // The token's one file is still there to make.
    const ok = await png(150, 150);
    const second = await start(t, { file_name: "n.png", format: "image/png", size: ok.length }, token);
    await uploadAll(t, second, ok);
    expect((await completeRaw(t, second.session_id, token)).statusCode).toBe(200);
  });

  it("judge a photo as shown: EXIF orientation 6 makes a 300×200 JPEG a 200×300 portrait", async () => {
    const { token } = await mintUploadToken(t, { max_aspect_ratio: 1, max_files: 2 });
    const portrait = uploaded(
      await directUpload(
        t,
        { file_name: "p.jpg" },
        { content: await orientedJpeg(300, 200, 6) },
        { key: token },
      ),
    );
    expect([portrait.width, portrait.height]).toEqual([200, 300]);
    const landscape = await directUpload(
      t,
      { file_name: "l.jpg" },
      { content: await orientedJpeg(300, 200, 1) },
      { key: token },
    );
    expect(expectDimensionRefusal(landscape)).toBe(
      "The image is 300×200 px (aspect ratio 1.5); this credential accepts an aspect ratio (width / height) of at most 1",
    );
    const { token: wide } = await mintUploadToken(t, { min_aspect_ratio: 1.2 });
    expect(
      expectDimensionRefusal(
        await directUpload(
          t,
          { file_name: "q.jpg" },
          { content: await orientedJpeg(300, 200, 6) },
          { key: wide },
        ),
      ),
    ).toContain(
      "200×300 px (aspect ratio 0.667); this credential accepts an aspect ratio (width / height) of at least 1.2",
    );
  });

  it("refuse an image whose header cannot be read, since it cannot be shown to fit", async () => {
    const { token } = await mintUploadToken(t, { max_width: 4000, max_files: 1 });
    // A JPEG's start of image and JFIF segment, then its end: sniffed as JPEG, no frame to measure.
    const broken = Buffer.from([
      ...[0xff, 0xd8], // start of image
      ...[
        0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
        0x00,
      ],
      ...[0xff, 0xd9], // end of image
    ]);
    await leavesNothing(t, async () => {
      const res = await directUpload(t, { file_name: "b.jpg" }, { content: broken }, { key: token });
      expect(expectDimensionRefusal(res)).toBe(
        "This image/jpeg image's pixel size could not be read; this credential limits image dimensions",
      );
    });
    // Without dimension limits the same bytes are kept as a file, as before.
    uploaded(await directUpload(t, { file_name: "b.jpg" }, { content: broken }));
  });

  it("leave files that are not images alone", async () => {
    const { token } = await mintUploadToken(t, { min_width: 1000, min_aspect_ratio: 2, max_files: 1 });
    const pdf = uploaded(await directUpload(t, { file_name: "doc.pdf" }, { content: PDF }, { key: token }));
    expect(pdf.mime_type).toBe("application/pdf");
  });

  it("hold for a public key's own policy, set through the admin API", async () => {
    const base = `/admin/v1/workspaces/${t.workspace.workspaceNo}/keys`;
    const created = await admin(t, "POST", base, { type: "public", policy: { min_height: 300 } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().policy).toEqual({ min_height: 300 });
    const res = await directUpload(
      t,
      { file_name: "k.png" },
      { content: await png(300, 200) },
      { key: created.json().key },
    );
    expect(expectDimensionRefusal(res)).toContain("at least 300 px high");
    const { key } = await createApiKey(t.app.db, {
      workspaceId: t.workspace.id,
      type: "public",
      policy: { max_width: 50 },
    });
    expectDimensionRefusal(
      await directUpload(t, { file_name: "k2.png" }, { content: await png(60, 10) }, { key }),
    );
  });
});

describe("bad dimension policies", () => {
  it("are refused with 400 naming both limits, for tokens and public keys", async () => {
    const mint = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads/tokens",
      headers: { "x-api-key": t.keys.private },
      payload: { min_width: 2000, max_width: 1000 },
    });
    expect(mint.statusCode).toBe(400);
    expect(mint.body).toContain("min_width (2000) must not be greater than max_width (1000)");
    for (const payload of [
      { min_aspect_ratio: 2, max_aspect_ratio: 1 },
      { max_height: 0 },
      { min_width: 1.5 },
    ]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/uploads/tokens",
        headers: { "x-api-key": t.keys.private },
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const key = await admin(t, "POST", `/admin/v1/workspaces/${t.workspace.workspaceNo}/keys`, {
      type: "public",
      policy: { min_height: 900, max_height: 100 },
    });
    expect(key.statusCode).toBe(400);
    expect(key.json()).toMatchObject({ errorCode: "VALIDATION_FAILED" });
    expect(key.body).toContain("min_height (900) must not be greater than max_height (100)");
  });
});
