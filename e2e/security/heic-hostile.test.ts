/**
 * Security: HEIC is decoded by libheif in WebAssembly (apps/server/src/media/heif/), a parser of
 * attacker bytes that anyone with a public key can upload to and anyone with a URL can make the
 * delivery host run. Against the real `trove-server` over loopback, a hostile HEIC is refused
 * quickly, with the status and code any other image of its kind gets, and the server stays up:
 * - a declared ispe far past the pixel limit, a grid of thousands of tiles, and a real photo over
 *   a low limit: IMAGE_TOO_LARGE (400) at upload, like a PNG over the same limit, before decoding;
 * - truncated, a box size that lies, a nesting bomb: kept as bytes when nothing asks to decode
 *   them (as a corrupt JPEG is), and a container with no coded pixels described from its header;
 *   UNSUPPORTED_MEDIA_TYPE (400) when a store-time or delivery transform decodes any of them;
 * - many HEIC renders at once pass the render gate: each is rendered or refused with 503, never a
 *   500, and /healthz answers throughout.
 * The time limit (a decode that never returns is terminated with its worker) is exercised in
 * decode-heif.test.ts, where a limit of a millisecond can be set.
 */
import { readFileSync } from "node:fs";
import { errorEnvelopeSchema } from "@trove/schema";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { box, ftyp, gridImage, singleImage } from "../../apps/server/test/fixtures/heif/build-heif";
import { gradientPng } from "../support/png";
import { uploadRecord } from "../support/upload-record";

const fixture = (name: string) =>
  readFileSync(new URL(`../../apps/server/test/fixtures/heif/${name}`, import.meta.url));
const small = fixture("photo-64x48.heic");
const photo = fixture("photo-1280x800.heic");
const MAX_INPUT_PIXELS = 1_000_000;

describe("hostile HEIC files", () => {
  let server: ServerProcess;
  let workspaceNo: string;

  beforeAll(async () => {
    server = await startServerProcess({
      TROVE_RATE_LIMIT_MAX: "100000",
      TROVE_MAX_INPUT_PIXELS: String(MAX_INPUT_PIXELS),
      TROVE_RENDER_CONCURRENCY: "1",
      TROVE_RENDER_QUEUE: "2",
      LOG_LEVEL: "error",
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** A direct upload, by default with the public key (what a browser on any site may send). */
  async function upload(name: string, content: Uint8Array, transform?: string, key = server.keys.public) {
    const form = new FormData();
    form.set("file_name", name);
    if (transform) form.set("transform", transform);
    // A phone's HEIC often arrives with no type at all: the bytes decide.
    form.set("file", new Blob([content as BlobPart]), name);
    const response = await fetch(`${server.baseUrl}/api/v1/uploads`, {
      method: "POST",
      headers: { "x-api-key": key },
      body: form,
    });
    const body: unknown = await response.json();
    return {
      status: response.status,
      body: response.ok ? uploadRecord(body) : (body as Record<string, unknown>),
    };
  }

  const refusal = (result: { status: number; body: Record<string, unknown> }) => {
    const envelope = errorEnvelopeSchema.parse(result.body) as Record<string, unknown>;
    return { status: result.status, code: envelope.errorCode ?? envelope.code };
  };

  const deliver = (transform: string, name: string) =>
    fetch(`${server.assetsUrl}/${workspaceNo}/${transform}/${name}`);

  async function healthy() {
    const health = await fetch(`${server.baseUrl}/healthz`);
    await health.arrayBuffer();
    expect(health.status).toBe(200);
  }

  it("accepts and renders a real HEIC, so the refusals below are about the files", async () => {
    const good = await upload("good.heic", small);
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ mime_type: "image/heic", width: 64, height: 48 });
    [, workspaceNo = ""] = new URL(String(good.body.url)).pathname.replace(/^\/assets/, "").split("/");
    const variant = await deliver("w_32,f_webp", String(good.body.name));
    expect(variant.status).toBe(200);
    expect(variant.headers.get("content-type")).toBe("image/webp");
  });

  it("refuses pixel bombs at upload as IMAGE_TOO_LARGE, exactly as a PNG over the limit", async () => {
    const png = refusal(await upload("big.png", gradientPng(1200, 1000)));
    expect(png).toEqual({ status: 400, code: "IMAGE_TOO_LARGE" });
    const bombs = {
      "over-the-limit.heic": photo,
      "ispe-bomb.heic": singleImage(100_000, 100_000),
      "ispe-max.heic": singleImage(0xffffffff, 0xffffffff),
      "tiles-bomb.heic": gridImage(1000, 1000, 5000, 16),
      "huge-tiles.heic": gridImage(512, 512, 4, 16_384),
    };
    for (const [name, content] of Object.entries(bombs)) {
      expect(refusal(await upload(name, content)), name).toEqual(png);
      expect(refusal(await upload(`t-${name}`, content, "w_10,f_webp")), name).toEqual(png);
    }
    await healthy();
  });

  it("keeps corrupt containers as bytes (private key), refuses them from a public key, and refuses to decode them with UNSUPPORTED_MEDIA_TYPE", async () => {
    const depth = 50_000;
    const nesting = Buffer.alloc(depth * 8);
    for (let level = 0; level < depth; level += 1) {
      nesting.writeUInt32BE((depth - level) * 8, level * 8);
      nesting.write("meta", level * 8 + 4, "latin1");
    }
    const corrupt = {
      "truncated.heic": small.subarray(0, Math.floor(small.length / 2)),
      "head-only.heic": small.subarray(0, 40),
      "lying-size.heic": Buffer.concat([
        ftyp("heic", ["mif1"]),
        box("meta", [new Uint8Array(16)], 0x7fffffff),
      ]),
      "nesting-bomb.heic": Buffer.concat([ftyp("heic", ["mif1"]), nesting]),
    };
    // A sound header over no coded pixels is described from its header, as a JPEG whose pixel
    // data is corrupt is, and refused only when something decodes it.
    const noPixels = singleImage(64, 48);
    for (const [name, content] of Object.entries(corrupt)) {
      // A public key's upload has its embedded metadata removed, which needs a container that
      // parses: a corrupt one is refused rather than stored with whatever it carries.
      expect(refusal(await upload(`public-${name}`, content)), name).toEqual({
        status: 400,
        code: "UNSUPPORTED_MEDIA_TYPE",
      });
    }
    // A private key keeps metadata, so the bytes are stored as they came.
    for (const [name, content] of [...Object.entries(corrupt), ["no-pixels.heic", noPixels] as const]) {
      const stored = await upload(name, content, undefined, server.keys.private);
      expect(stored.status, name).toBe(200);
      const size = content === noPixels ? { width: 64, height: 48 } : { width: null, height: null };
      expect(stored.body, name).toMatchObject({ mime_type: "image/heic", ...size });
      expect(refusal(await upload(`t-${name}`, content, "w_10"))).toEqual({
        status: 400,
        code: "UNSUPPORTED_MEDIA_TYPE",
      });
      const variant = await deliver("w_10,f_webp", String(stored.body.name));
      expect(variant.status, name).toBe(400);
      expect(errorEnvelopeSchema.parse(await variant.json())).toMatchObject({
        message: expect.stringMatching(/^image could not be decoded/),
      });
    }
    await healthy();
  });

  it("passes many HEIC renders at once through the render gate: rendered or 503, never a 500", async () => {
    const stored = await upload("many.heic", small);
    const name = String(stored.body.name);
    // Distinct transforms, so no render is another's cache hit.
    const renders = Array.from({ length: 12 }, (_, index) =>
      deliver(`w_${20 + index},f_webp`, name).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      }),
    );
    await healthy();
    const statuses = await Promise.all(renders);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    expect(statuses).toContain(200);
    await healthy();
    // Nothing is left stuck: every one renders once the burst is over.
    for (let index = 0; index < 12; index += 1) {
      const response = await deliver(`w_${20 + index},f_webp`, name);
      await response.arrayBuffer();
      expect(response.status).toBe(200);
    }
  });
});
