/**
 * Delivery-time video transforms (issue #33): the asynchronous lifecycle on the delivery host
 * (202 triggered, 202 processing, the `video.render` job run by the test, then 200), each
 * documented parameter and every video example URL of the hosted documentation on real clips
 * made by ffmpeg, the outputs read back with ffprobe (type, size, duration, audio); Range on
 * outputs and originals, 422 after a failed job, 503 without ffmpeg (images still served), the
 * outputs of a deleted original gone, eviction beyond the per-file cap.
 */
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobRunner } from "../src/jobs/start-workers.js";
import { variantCachePrefix } from "../src/media/variant-cache-key.js";
import { videoOutputKey } from "../src/video/video-output-key.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { solid } from "./support/test-images.js";
import { makeTestVideo, probeFile, withoutLocalFiles } from "./support/test-videos.js";
import { directUpload, listObjects, uploaded } from "./uploads-helpers.js";

let dir: string;
let t: TestApp;
let ws: string;
/** The stored clips: 3 s and 16 s, 320×240, H.264 + AAC. */
const stored = new Map<string, { id: string; fileNo: string; storageKey: string }>();

async function upload(app: TestApp, name: string, content: Buffer, folder = "clips") {
  const record = uploaded(await directUpload(app, { file_name: name, folder }, { content }));
  const row = await app.app.db.file.findUniqueOrThrow({ where: { id: record.id } });
  return { id: row.id, fileNo: String(row.fileNo), storageKey: row.storageKey };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-video-delivery-"));
  t = await createTestApp();
  ws = t.workspace.workspaceNo;
  stored.set(
    "clip.mp4",
    await upload(t, "clip.mp4", await makeTestVideo(dir, "clip.mp4", [], { seconds: 3 })),
  );
  const long = await makeTestVideo(dir, "long.mp4", ["-preset", "ultrafast"], { seconds: 16 });
  stored.set("long.mp4", await upload(t, "long.mp4", long));
}, 120_000);

afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const request = (
  app: TestApp,
  url: string,
  headers: Record<string, string> = {},
  method: "GET" | "HEAD" = "GET",
) => app.app.inject({ method, url, headers });

/** Runs the app's due jobs (video renders among them) until none is left. */
async function runJobs(app: TestApp) {
  const runner = createJobRunner(app.app);
  while ((await runner.runOnce()) > 0) {}
}

function expectStatus(res: LightMyRequestResponse, status: "triggered" | "processing") {
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json()).toMatchObject({ status });
  expect(res.headers["cache-control"]).toBe("no-store");
  expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
}

/** The output at `url` written to a file and read back with ffprobe. */
async function probeOutput(res: LightMyRequestResponse) {
  const path = join(dir, `output-${Math.random().toString(36).slice(2)}`);
  await writeFile(path, res.rawPayload);
  const probed = await probeFile(path);
  const video = probed.streams.find((stream) => stream.codec_type === "video");
  return {
    ...probed,
    width: video?.width,
    height: video?.height,
    codec: video?.codec_name,
    audio: probed.streams.some((stream) => stream.codec_type === "audio"),
  };
}

interface Expected {
  type: "video/mp4" | "image/gif" | "image/webp";
  width: number;
  height: number;
  /** Seconds (outputs with a duration); absent for a still. */
  duration?: number;
  /** `square`: width equals height, whatever the size. */
  square?: true;
}

const MP4 = "video/mp4";
/** Each documented parameter, on the 3 s clip, and the hosted pages' examples (marked). */
const CASES: Array<[file: string, transform: string, expected: Expected]> = [
  ["clip.mp4", "thumb_ar", { type: "image/webp", width: 320, height: 240 }], // hosted
  ["clip.mp4", "thumb_ar,so_1,w_160", { type: "image/webp", width: 160, height: 120 }],
  ["clip.mp4", "w_160", { type: MP4, width: 160, height: 120, duration: 3 }],
  ["clip.mp4", "h_120", { type: MP4, width: 160, height: 120, duration: 3 }],
  ["clip.mp4", "w_400", { type: MP4, width: 320, height: 240, duration: 3 }], // hosted; never enlarged
  ["clip.mp4", "w_400,ar_1:1", { type: MP4, width: 0, height: 0, duration: 3, square: true }], // hosted
  ["clip.mp4", "ar_16:9", { type: MP4, width: 320, height: 180, duration: 3 }], // hosted
  ["clip.mp4", "w_400,h_400,cm_pad_resize,bg_white", { type: MP4, width: 400, height: 400, duration: 3 }], // hosted
  ["clip.mp4", "w_100,h_100,cm_extract", { type: MP4, width: 100, height: 100, duration: 3 }],
  ["clip.mp4", "w_200,h_200,cm_pad_resize,bg_blurred", { type: MP4, width: 200, height: 200, duration: 3 }],
  ["clip.mp4", "so_1,eo_2", { type: MP4, width: 320, height: 240, duration: 1 }],
  ["clip.mp4", "d_1.5", { type: MP4, width: 320, height: 240, duration: 1.5 }],
  ["clip.mp4", "f_gif,w_160", { type: "image/gif", width: 160, height: 120, duration: 3 }],
  ["clip.mp4", "f_gif,w_400", { type: "image/gif", width: 320, height: 240, duration: 3 }], // hosted
  ["clip.mp4", "r_90,w_400", { type: MP4, width: 240, height: 320, duration: 3 }], // hosted
  ["clip.mp4", "r_180", { type: MP4, width: 320, height: 240, duration: 3 }],
  ["clip.mp4", "r_270", { type: MP4, width: 240, height: 320, duration: 3 }],
  ["clip.mp4", "flip_h,w_400", { type: MP4, width: 320, height: 240, duration: 3 }], // hosted
  ["clip.mp4", "flip_v", { type: MP4, width: 320, height: 240, duration: 3 }],
  ["clip.mp4", "flip_hv", { type: MP4, width: 320, height: 240, duration: 3 }],
  ["long.mp4", "so_5,eo_15,w_400", { type: MP4, width: 320, height: 240, duration: 10 }], // hosted
  ["long.mp4", "d_10", { type: MP4, width: 320, height: 240, duration: 10 }], // hosted
  ["long.mp4", "f_gif,so_5,d_10,w_400", { type: "image/gif", width: 320, height: 240, duration: 10 }], // hosted
];

describe("video transforms on the delivery host", () => {
  it("answers triggered, then processing, and after the job the output: each parameter and hosted example", {
    timeout: 600_000,
  }, async () => {
    for (const [file, transform] of CASES) {
      const url = `/assets/${ws}/${transform}/clips/${file}`;
      expectStatus(await request(t, url), "triggered");
      expectStatus(await request(t, url), "processing");
    }
    await runJobs(t);
    for (const [file, transform, expected] of CASES) {
      const res = await request(t, `/assets/${ws}/${transform}/clips/${file}`);
      expect(res.statusCode, `${transform}: ${res.body.slice(0, 200)}`).toBe(200);
      expect(res.headers["content-type"], transform).toBe(expected.type);
      expect(res.headers["cache-control"], transform).toMatch(/max-age/);
      expect(res.headers["accept-ranges"], transform).toBe("bytes");
      expect(res.headers.etag, transform).toMatch(/^"[0-9a-f]{32}-[0-9a-f]{16}"$/);
      expect(Number(res.headers["content-length"])).toBe(res.rawPayload.length);
      const output = await probeOutput(res);
      if (expected.square) {
        expect(output.width, transform).toBe(output.height);
      } else {
        expect([output.width, output.height], transform).toEqual([expected.width, expected.height]);
      }
      expect(output.codec, transform).toBe(
        { "video/mp4": "h264", "image/gif": "gif", "image/webp": "webp" }[expected.type],
      );
      // Audio is kept in video outputs, dropped for GIFs and stills.
      expect(output.audio, transform).toBe(expected.type === MP4);
      if (expected.duration !== undefined) {
        expect(Math.abs(output.durationSeconds - expected.duration), transform).toBeLessThan(0.25);
      }
    }
  });

  it("serves a ready output with Range, If-None-Match and HEAD", { timeout: 120_000 }, async () => {
    const url = `/assets/${ws}/w_96/clips/clip.mp4`;
    // HEAD answers as GET: it triggers the render (no body), and the next request finds it queued.
    const first = await request(t, url, {}, "HEAD");
    expect(first.statusCode).toBe(202);
    expect(first.headers["cache-control"]).toBe("no-store");
    expect(first.rawPayload.length).toBe(0);
    expectStatus(await request(t, url), "processing");
    await runJobs(t);
    const whole = await request(t, url);
    expect(whole.statusCode).toBe(200);
    const size = whole.rawPayload.length;

    const part = await request(t, url, { range: "bytes=0-99" });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 0-99/${size}`);
    expect(part.headers["content-type"]).toBe("video/mp4");
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(0, 100));
    const tail = await request(t, url, { range: `bytes=${size - 10}-` });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload).toEqual(whole.rawPayload.subarray(size - 10));

    const cached = await request(t, url, { "if-none-match": String(whole.headers.etag) });
    expect(cached.statusCode).toBe(304);
    const head = await request(t, url, {}, "HEAD");
    expect(head.statusCode).toBe(200);
    expect(head.headers["content-length"]).toBe(String(size));
    expect(head.rawPayload.length).toBe(0);
  });

  it("renders an output again when its object is gone", { timeout: 120_000 }, async () => {
    const url = `/assets/${ws}/w_64/clips/clip.mp4`;
    expectStatus(await request(t, url), "triggered");
    await runJobs(t);
    expect((await request(t, url)).statusCode).toBe(200);
    await t.app.storage.delete(videoOutputKey(stored.get("clip.mp4")!.storageKey, "w_64"));
    expectStatus(await request(t, url), "triggered");
    expectStatus(await request(t, url), "processing");
    await runJobs(t);
    const again = await request(t, url);
    expect(again.statusCode).toBe(200);
    expect((await probeOutput(again)).width).toBe(64);
  });

  it("answers 422 with the failure's code once the job failed, and does not queue it again", {
    timeout: 120_000,
  }, async () => {
    const url = `/assets/${ws}/so_10/clips/clip.mp4`; // starts past the 3 s clip's end
    expectStatus(await request(t, url), "triggered");
    await runJobs(t);
    const failed = await request(t, url);
    expect(failed.statusCode).toBe(422);
    expect(failed.json().message).toMatch(/^(VIDEO_[A-Z_]+|UNSUPPORTED_VIDEO): /);
    expect((await request(t, url)).statusCode).toBe(422);
    const jobs = await t.app.db.job.count({ where: { kind: "video.render", status: "pending" } });
    expect(jobs).toBe(0);
  });

  it("refuses what the video grammar refuses with a 400 naming the directive, and serves a no-op as the original", async () => {
    const unknown = await request(t, `/assets/${ws}/e_grayscale/clips/clip.mp4`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain("e_grayscale");
    const both = await request(t, `/assets/${ws}/so_1,eo_2,d_1/clips/clip.mp4`);
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toMatch(/eo_|d_/);

    const original = await request(t, `/assets/${ws}/clips/clip.mp4`);
    const noop = await request(t, `/assets/${ws}/r_0/clips/clip.mp4`);
    expect(noop.statusCode).toBe(200);
    expect(noop.headers["content-type"]).toBe("video/mp4");
    expect(noop.rawPayload).toEqual(original.rawPayload);
  });

  it("answers 400 for a stored video whose bytes are no whitelisted container, and queues nothing", async () => {
    const file = await upload(t, "fake.mp4", await makeTestVideo(dir, "fake.mp4", [], { seconds: 1 }));
    await t.app.storage.put(file.storageKey, Buffer.from("#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n"));
    const before = await t.app.db.job.count({ where: { kind: "video.render" } });
    const res = await request(t, `/assets/${ws}/w_160/clips/fake.mp4`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain("not a video Trove can transform");
    expect(await t.app.db.job.count({ where: { kind: "video.render" } })).toBe(before);
  });

  it("serves originals with Range, Accept-Ranges and their video type (mp4, webm, mov)", {
    timeout: 120_000,
  }, async () => {
    const webm = await makeTestVideo(
      dir,
      "clip.webm",
      [...["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus"]],
      { seconds: 1 },
    );
    await upload(t, "clip.webm", webm, "originals");
    await upload(t, "clip.mov", await makeTestVideo(dir, "clip.mov", [], { seconds: 1 }), "originals");
    await upload(t, "clip.mp4", await makeTestVideo(dir, "small.mp4", [], { seconds: 1 }), "originals");
    for (const [name, type] of [
      ["clip.mp4", "video/mp4"],
      ["clip.webm", "video/webm"],
      ["clip.mov", "video/quicktime"],
    ] as const) {
      const res = await request(t, `/assets/${ws}/originals/${name}`, { range: "bytes=0-99" });
      expect(res.statusCode, name).toBe(206);
      expect(res.headers["content-type"], name).toBe(type);
      expect(res.headers["accept-ranges"], name).toBe("bytes");
      expect(res.headers["content-range"], name).toMatch(/^bytes 0-99\/\d+$/);
      expect(res.rawPayload.length, name).toBe(100);
    }
  });

  it("removes a deleted original's outputs: rows by cascade, objects with the file", {
    timeout: 120_000,
  }, async () => {
    const file = await upload(t, "gone.mp4", await makeTestVideo(dir, "gone.mp4", [], { seconds: 1 }));
    const url = `/assets/${ws}/w_80/clips/gone.mp4`;
    expectStatus(await request(t, url), "triggered");
    await runJobs(t);
    expect((await request(t, url)).statusCode).toBe(200);
    const prefix = variantCachePrefix(file.storageKey);
    const objects = async () => (await listObjects(t.storageDir)).filter((key) => key.startsWith(prefix));
    expect(await objects()).toHaveLength(1);

    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/files/${file.fileNo}`,
      headers: { "x-api-key": t.keys.private },
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    await runJobs(t);
    expect(await t.app.db.videoOutput.count({ where: { fileId: file.id } })).toBe(0);
    expect(await objects()).toEqual([]);
    expect((await request(t, url)).statusCode).toBe(404);
  });
});

describe("video outputs per file", () => {
  it("keeps at most TROVE_MAX_VARIANTS_PER_FILE outputs, the least recently used evicted", {
    timeout: 120_000,
  }, async () => {
    const app = await createTestApp({ config: { delivery: { maxVariantsPerFile: 2 } } });
    try {
      const file = await upload(app, "clip.mp4", await makeTestVideo(dir, "capped.mp4", [], { seconds: 1 }));
      const base = `/assets/${app.workspace.workspaceNo}`;
      for (const width of [64, 96, 128]) {
        expectStatus(await request(app, `${base}/w_${width}/clips/clip.mp4`), "triggered");
        await runJobs(app); // one at a time: each output is newer than the one before
      }
      const rows = await app.app.db.videoOutput.findMany({ where: { fileId: file.id } });
      expect(rows.map((row) => row.transform).sort()).toEqual(["w_128", "w_96"]);
      expect(await app.app.storage.exists(videoOutputKey(file.storageKey, "w_64"))).toBe(false);
      expect((await request(app, `${base}/w_128/clips/clip.mp4`)).statusCode).toBe(200);
      expectStatus(await request(app, `${base}/w_64/clips/clip.mp4`), "triggered");
    } finally {
      await app.close();
    }
  });
});

describe("a store without local files", () => {
  it("renders from a bounded copy under the data dir's tmp, removed after; an original over the input limit fails with VIDEO_TOO_LARGE", {
    timeout: 120_000,
  }, async () => {
    const small = await makeTestVideo(dir, "copy-small.mp4", [], { seconds: 1 });
    const large = await makeTestVideo(dir, "copy-large.mp4", [], { seconds: 3 });
    expect(large.length).toBeGreaterThan(small.length);
    const storageDir = await mkdtemp(join(tmpdir(), "trove-video-no-local-"));
    const app = await createTestApp({
      storage: withoutLocalFiles(storageDir),
      config: { mediaLimits: { maxInputBytes: small.length + 1 } },
    });
    try {
      await upload(app, "small.mp4", small);
      await upload(app, "large.mp4", large);
      const base = `/assets/${app.workspace.workspaceNo}/w_96/clips`;
      expectStatus(await request(app, `${base}/small.mp4`), "triggered");
      expectStatus(await request(app, `${base}/large.mp4`), "triggered");
      await runJobs(app);
      const rendered = await request(app, `${base}/small.mp4`);
      expect(rendered.statusCode).toBe(200);
      expect((await probeOutput(rendered)).width).toBe(96);
      const refused = await request(app, `${base}/large.mp4`);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toMatch(/^VIDEO_TOO_LARGE: /);
      expect(await readdir(join(app.config.dataDir, "tmp"))).toEqual([]);
    } finally {
      await app.close();
      await rm(storageDir, { recursive: true, force: true });
    }
  });
});

describe("without ffmpeg", () => {
  it("answers 503 naming TROVE_FFMPEG_PATH for a video transform, and still serves images and originals", async () => {
    const missing = join(dir, "no-such-ffmpeg");
    const app = await createTestApp({ config: { video: { ffmpegPath: missing, ffprobePath: missing } } });
    try {
      const base = `/assets/${app.workspace.workspaceNo}`;
      await upload(app, "clip.mp4", await makeTestVideo(dir, "tools.mp4", [], { seconds: 1 }));
      const res = await request(app, `${base}/w_160/clips/clip.mp4`);
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toContain("TROVE_FFMPEG_PATH");
      expect(await app.app.db.videoOutput.count()).toBe(0);
      expect((await request(app, `${base}/clips/clip.mp4`)).statusCode).toBe(200);

      await upload(app, "red.png", await solid(40, 30, { r: 200, g: 30, b: 30 }, "png"), "pics");
      const image = await request(app, `${base}/w_20/pics/red.png`);
      expect(image.statusCode).toBe(200);
      expect(image.headers["content-type"]).toBe("image/png");
    } finally {
      await app.close();
    }
  });
});
