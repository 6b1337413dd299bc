/**
 * Security (#32): face detection (p_face, fo_face) is work anyone with a URL can make the delivery
 * host do. Against the real `trove-server` over loopback:
 * - p_face on the largest image the limits allow renders, within the time limit, on the face: the
 *   detector looks at a 640 px copy that libvips makes while decoding, whatever the source's size;
 * - many p_face renders at once pass the render gate: each is rendered or refused with 503, never
 *   a 500, /healthz answers throughout (detection runs in a worker thread, not on the event
 *   loop), and the server's memory stays bounded (one detector, its model loaded once);
 * - an image over the pixel limit is refused from its header before any detection runs.
 * The detector's own time limit (an overrun terminates its worker) is exercised in
 * apps/server/src/media/faces/detect-faces.test.ts, where a limit of a millisecond can be set.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorEnvelopeSchema } from "@trove/schema";
import { type LaunchedServer, launchServer, randomKey } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FACE_FIXTURE_PATH, faceOnCanvas, facesIn } from "../../apps/server/test/support/face-images";
import { uploadRecord } from "../support/upload-record";

/** The largest image these servers accept: 5000×5000. */
const MAX_INPUT_PIXELS = 25_000_000;
const LARGE = 5000;
/** Most the server's resident memory may grow over the concurrent renders. */
const MEMORY_BOUND_BYTES = 600 * 1024 * 1024;

const keys = { public: randomKey("pk"), private: randomKey("sk") };
let dataDir: string;
let server: LaunchedServer;
let workspaceNo: string;

const launch = (env: Record<string, string>) =>
  launchServer({
    keys,
    dataDir,
    env: {
      LOG_LEVEL: "error",
      TROVE_RATE_LIMIT_MAX: "100000",
      TROVE_ASSETS_RATE_LIMIT_MAX: "1000000000",
      TROVE_RATE_LIMIT_ADDRESS_MAX: "1000000000",
      TROVE_RENDER_CONCURRENCY: "2",
      TROVE_RENDER_QUEUE: "2",
      ...env,
    },
    readyTimeoutMs: 100_000,
    keepOutput: 200_000,
    stopGraceMs: 10_000,
  });

async function upload(name: string, content: Uint8Array): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.set("file_name", name);
  form.set("file", new Blob([content as BlobPart], { type: "image/jpeg" }), name);
  const response = await fetch(`${server.baseUrl}/api/v1/uploads`, {
    method: "POST",
    headers: { "x-api-key": keys.private },
    body: form,
  });
  const body = uploadRecord(await response.json());
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

const deliver = (transform: string, name: string) =>
  fetch(`${server.baseUrl}/assets/${workspaceNo}/${transform}/${name}`);

/** The server's resident memory, from /proc (Linux, like CI). */
async function residentBytes(): Promise<number> {
  const status = await readFile(`/proc/${server.child().pid}/status`, "utf8");
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb) * 1024;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "trove-faces-"));
  server = await launch({ TROVE_MAX_INPUT_PIXELS: String(MAX_INPUT_PIXELS) });
  const large = await upload("large.jpg", await faceOnCanvas(LARGE, LARGE, 3));
  expect(large).toMatchObject({ width: LARGE, height: LARGE });
  [, workspaceNo = ""] = new URL(String(large.url)).pathname.replace(/^\/assets/, "").split("/");
  await upload("portrait.jpg", await readFile(FACE_FIXTURE_PATH));
});

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("face detection on the delivery host", () => {
  it("p_face on a 25 MP image (the largest allowed) renders on the face within the time limit", async () => {
    // The portrait is 1536 px in the top-left corner of 5000×5000 grey: a centred 2:1 window
    // (y 1250..3750) is all grey, the face-placed one (y 0..2500) holds it.
    const faced = await deliver("w_1000,h_500,c_fill,p_face", "large.jpg");
    expect(faced.status).toBe(200);
    const body = new Uint8Array(await faced.arrayBuffer());
    expect(await facesIn(body)).toHaveLength(1);
    const centred = await deliver("w_1000,h_500,c_fill,p_c", "large.jpg");
    expect(centred.status).toBe(200);
    expect(await facesIn(new Uint8Array(await centred.arrayBuffer()))).toHaveLength(0);
  });

  it("many p_face renders at once: rendered or 503, never a 500; /healthz answers; memory bounded", async () => {
    const before = await residentBytes();
    // Distinct sizes, so that no render is another's cache hit.
    const renders = Array.from({ length: 12 }, async (_, i) => {
      const response = await deliver(`w_${200 + i},h_${200 + i},c_fill,p_face`, "portrait.jpg");
      const body = new Uint8Array(await response.arrayBuffer());
      return { status: response.status, body };
    });
    let settled = false;
    const all = Promise.all(renders).finally(() => {
      settled = true;
    });
    let healthChecks = 0;
    while (!settled) {
      const health = await fetch(`${server.baseUrl}/healthz`);
      await health.arrayBuffer();
      expect(health.status).toBe(200);
      healthChecks++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const results = await all;
    expect(healthChecks).toBeGreaterThan(0);
    for (const { status, body } of results) {
      expect([200, 503]).toContain(status);
      if (status === 503) {
        expect(errorEnvelopeSchema.safeParse(JSON.parse(new TextDecoder().decode(body))).success).toBe(true);
      }
    }
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    expect((await residentBytes()) - before).toBeLessThan(MEMORY_BOUND_BYTES);
    // The detector still answers after the burst.
    const again = await deliver("w_180,h_180,c_fill,p_face", "portrait.jpg");
    expect(again.status).toBe(200);
    expect(await facesIn(new Uint8Array(await again.arrayBuffer()))).toHaveLength(1);
  });

  it("an image over the pixel limit is refused from its header, before detection", async () => {
    // The same stored 25 MP photo, served by a server whose limit is 1 MP.
    await server.stop();
    server = await launch({ TROVE_MAX_INPUT_PIXELS: "1000000" });
    for (const transform of ["w_400,h_400,c_fill,p_face", "fo_face,w_300"]) {
      const response = await deliver(transform, "large.jpg");
      expect(response.status).toBe(400);
      const body: unknown = await response.json();
      // The header check's refusal (sharp-error.ts inputPixelLimitError), not a detector's.
      expect(errorEnvelopeSchema.parse(body)).toMatchObject({
        message: "image is larger than the 1000000-pixel input limit",
      });
    }
  });
});
