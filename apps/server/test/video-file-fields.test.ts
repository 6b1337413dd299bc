/**
 * A stored video's record (issue #33): its frame, duration and codecs, read by ffprobe after the
 * upload, in the upload response and the file's details and record; null for an image, for a
 * file named like a video that is not one, and where the store has no local files.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FileDetails, fileDetailsResponseSchema, fileRecordSchema } from "@trove/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./support/index.js";
import { makeTestVideo, withoutLocalFiles } from "./support/test-videos.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

let dir: string;
let t: TestApp;
let clip: Buffer;
let silent: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-video-fields-"));
  clip = await makeTestVideo(dir, "clip.mp4");
  silent = await makeTestVideo(dir, "silent.webm", ["-an", "-c:v", "libvpx-vp9", "-b:v", "200k"]);
  t = await createTestApp();
}, 120_000);

afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

async function details(app: TestApp, fileNo: string): Promise<FileDetails> {
  const res = await app.app.inject({
    method: "GET",
    url: `/api/v1/files/${fileNo}`,
    headers: { "x-api-key": app.keys.private },
  });
  expect(res.statusCode).toBe(200);
  return fileDetailsResponseSchema.parse(res.json()).data;
}

const NO_VIDEO = { duration: null, video_codec: null, audio_codec: null };

describe("a video's record fields", () => {
  it("a 2 s 320×240 H.264/AAC clip: width, height, duration and codecs in the response, details and record", async () => {
    const record = uploaded(await directUpload(t, { file_name: "clip.mp4" }, { content: clip }));
    expect(record).toMatchObject({ width: 320, height: 240, video_codec: "h264", audio_codec: "aac" });
    expect(record.duration).toBeCloseTo(2, 1);

    const got = await details(t, record.file_no);
    expect(got.dimensions).toEqual({ width: 320, height: 240 });
    expect(got).toMatchObject({ video_codec: "h264", audio_codec: "aac" });
    expect(got.duration).toBeCloseTo(2, 1);

    const renamed = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/files/${record.file_no}/rename`,
      headers: { "x-api-key": t.keys.private },
      payload: { name: "renamed" },
    });
    expect(renamed.statusCode).toBe(200);
    const body = renamed.json() as { data?: unknown };
    const file = fileRecordSchema.parse(body.data ?? body);
    expect(file).toMatchObject({ width: 320, height: 240, video_codec: "h264", audio_codec: "aac" });

    // The list row keeps the spec's keys.
    const list = await t.app.inject({
      method: "GET",
      url: "/api/v1/files",
      headers: { "x-api-key": t.keys.private },
    });
    const row = (list.json() as { files: Record<string, unknown>[] }).files.find(
      (f) => f.file_no === record.file_no,
    );
    expect(row).toBeDefined();
    expect(Object.keys(row as object)).not.toContain("duration");
  });

  it("a WebM without audio: VP9 and a null audio codec", async () => {
    const record = uploaded(await directUpload(t, { file_name: "silent.webm" }, { content: silent }));
    expect(record).toMatchObject({ width: 320, height: 240, video_codec: "vp9", audio_codec: null });
  });

  it("an image, and bytes named .mp4 that are no video, have them null", async () => {
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
      "base64",
    );
    const image = uploaded(await directUpload(t, { file_name: "dot.png" }, { content: png }));
    expect(image).toMatchObject({ width: 1, height: 1, ...NO_VIDEO });
    expect(await details(t, image.file_no)).toMatchObject(NO_VIDEO);

    // An HLS playlist named like a video: never handed to ffprobe, stored as text.
    const playlist = Buffer.from("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile:///etc/passwd\n");
    const fake = uploaded(await directUpload(t, { file_name: "fake.mp4" }, { content: playlist }));
    expect(fake).toMatchObject({ width: null, height: null, ...NO_VIDEO });
  });

  it("a video whose container is whitelisted but unreadable is stored, its fields null", async () => {
    const broken = Buffer.concat([clip.subarray(0, 64), Buffer.alloc(4096)]);
    const res = await directUpload(t, { file_name: "broken.mp4" }, { content: broken });
    expect(res.statusCode).toBe(200);
    expect(uploaded(res)).toMatchObject({ width: null, height: null, ...NO_VIDEO });
  });

  it("a store without local files leaves them null (documented), and the upload succeeds", async () => {
    const storageDir = await mkdtemp(join(tmpdir(), "trove-video-fields-store-"));
    const app = await createTestApp({ storage: withoutLocalFiles(storageDir) });
    try {
      const record = uploaded(await directUpload(app, { file_name: "clip.mp4" }, { content: clip }));
      expect(record).toMatchObject({ width: null, height: null, ...NO_VIDEO });
    } finally {
      await app.close();
      await rm(storageDir, { recursive: true, force: true });
    }
  });
});
