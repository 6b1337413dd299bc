/**
 * Video originals under the image rule for embedded metadata (issue #33): MP4 and MOV made by
 * ffmpeg with a location and a device, uploaded (small and large direct, multipart, public key,
 * a store without local files), then the stored original read back with ffprobe. Hostile box
 * structures are refused with the upload's 400, never a 5xx or a hang.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { complete, start, uploadAll } from "./multipart-helpers.js";
import { createTestApp, type TestApp } from "./support/index.js";
import {
  hasDevice,
  hasLocation,
  makeTestVideo,
  type ProbedFile,
  probeFile,
  withoutLocalFiles,
} from "./support/test-videos.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

const LOCATION = "+48.8584+002.2945/";
const DEVICE = ["-metadata", "make=Phone", "-metadata", "model=X1"];

let dir: string;
let t: TestApp;
/** name → bytes: each carries a location and a device, as ffprobe confirmed before any upload. */
const clips = new Map<string, Buffer>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-video-metadata-"));
  const located = ["-metadata", `location=${LOCATION}`, ...DEVICE];
  const keys = ["-movflags", "use_metadata_tags"];
  const apple = [
    ...["-metadata", `com.apple.quicktime.location.ISO6709=${LOCATION}`],
    ...["-metadata", "com.apple.quicktime.make=Phone", "-metadata", "com.apple.quicktime.model=X1"],
  ];
  clips.set("udta.mov", await makeTestVideo(dir, "udta.mov", located));
  clips.set("keys.mp4", await makeTestVideo(dir, "keys.mp4", [...keys, ...located]));
  clips.set("apple.mov", await makeTestVideo(dir, "apple.mov", [...keys, ...apple]));
  // Past the direct upload's in-memory threshold: stripped in storage.
  clips.set("large.mov", await makeTestVideo(dir, "large.mov", located, { bitrate: "3M" }));
  for (const name of clips.keys()) {
    const { tags } = await probeFile(join(dir, name));
    if (!hasLocation(tags) || !hasDevice(tags))
      throw new Error(`${name} lacks its metadata: ${JSON.stringify(tags)}`);
  }
  t = await createTestApp();
}, 120_000);

afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

async function storedProbe(
  app: TestApp,
  res: LightMyRequestResponse,
): Promise<ProbedFile & { size: number }> {
  const record = uploaded(res);
  const row = await app.app.db.file.findUniqueOrThrow({ where: { id: record.id } });
  const bytes = await readFile(join(app.storageDir, row.storageKey));
  expect(record.size).toBe(bytes.length);
  const path = join(dir, `stored-${record.id}`);
  await writeFile(path, bytes);
  return { ...(await probeFile(path)), size: bytes.length };
}

function expectPlays(probed: ProbedFile): void {
  expect(probed.durationSeconds).toBeCloseTo(2, 0);
  expect(probed.streams.map((stream) => stream.codec_type).sort()).toEqual(["audio", "video"]);
}

describe("video originals keep or lose their metadata as images do", () => {
  const CASES = [...["udta.mov", "keys.mp4", "apple.mov", "large.mov"].entries()].flatMap(([, name]) =>
    (["strip", "strip-location", "keep"] as const).map((mode) => [name, mode] as const),
  );

  it.each(CASES)("%s with embedded_metadata=%s", async (name, mode) => {
    const content = clips.get(name) as Buffer;
    const res = await directUpload(t, { file_name: name, embedded_metadata: mode }, { content });
    const probed = await storedProbe(t, res);
    expectPlays(probed);
    expect(probed.size).toBe(content.length);
    expect(hasLocation(probed.tags)).toBe(mode === "keep");
    expect(hasDevice(probed.tags)).toBe(mode !== "strip");
  });

  it("a public key strips by default, and the record's hash is the stored bytes'", async () => {
    const content = clips.get("udta.mov") as Buffer;
    const res = await directUpload(t, { file_name: "public.mov" }, { content }, { key: t.keys.public });
    const record = uploaded(res);
    const row = await t.app.db.file.findUniqueOrThrow({ where: { id: record.id } });
    const stored = await readFile(join(t.storageDir, row.storageKey));
    const probed = await storedProbe(t, res);
    expect(hasLocation(probed.tags) || hasDevice(probed.tags), JSON.stringify(probed.tags)).toBe(false);
    const original = uploaded(await directUpload(t, { file_name: "original.mov" }, { content }));
    expect(original.hash).not.toBe(record.hash);
    // The stored bytes sent again (kept as they are) are a duplicate of the stripped upload.
    const again = uploaded(await directUpload(t, { file_name: "again.mov" }, { content: stored }));
    expect(again.hash).toBe(record.hash);
  });

  it("a multipart upload is stripped after its parts are joined", async () => {
    const content = clips.get("large.mov") as Buffer;
    const session = await start(t, {
      file_name: "parts.mov",
      size: content.length,
      embedded_metadata: "strip-location",
    });
    await uploadAll(t, session, content);
    const done = await complete(t, session.session_id);
    const row = await t.app.db.file.findFirstOrThrow({ where: { fileNo: BigInt(done.file_no) } });
    const path = join(dir, "parts-stored.mov");
    await writeFile(path, await readFile(join(t.storageDir, row.storageKey)));
    const probed = await probeFile(path);
    expectPlays(probed);
    expect(hasLocation(probed.tags)).toBe(false);
    expect(hasDevice(probed.tags)).toBe(true);
  });

  it("a store without local files gets the stripped bytes by streaming the object back", async () => {
    const storageDir = await mkdtemp(join(tmpdir(), "trove-video-remote-store-"));
    const app = await createTestApp({ storage: withoutLocalFiles(storageDir) });
    try {
      const content = clips.get("large.mov") as Buffer;
      const res = await directUpload(
        app,
        { file_name: "remote.mov", embedded_metadata: "strip" },
        { content },
      );
      const record = uploaded(res);
      const row = await app.app.db.file.findUniqueOrThrow({ where: { id: record.id } });
      const path = join(dir, "remote-stored.mov");
      await writeFile(path, await readFile(join(storageDir, row.storageKey)));
      const probed = await probeFile(path);
      expectPlays(probed);
      expect(hasLocation(probed.tags) || hasDevice(probed.tags), JSON.stringify(probed.tags)).toBe(false);
    } finally {
      await app.close();
      await rm(storageDir, { recursive: true, force: true });
    }
  });
});

describe("hostile box structures", () => {
  const box = (type: string, ...parts: Buffer[]) => {
    const body = Buffer.concat(parts);
    const header = Buffer.alloc(8);
    header.writeUInt32BE(8 + body.length);
    header.write(type, 4, "latin1");
    return Buffer.concat([header, body]);
  };
  const ftyp = box("ftyp", Buffer.from("isom\0\0\x02\0isomiso2avc1mp41", "latin1"));

  async function send(content: Buffer): Promise<LightMyRequestResponse> {
    return directUpload(t, { file_name: "hostile.mp4" }, { content }, { key: t.keys.public });
  }

  it.each([
    [
      "a moov overrunning the file",
      () => {
        const moov = box("moov", box("udta", box("\u00a9xyz", Buffer.from(LOCATION))));
        moov.writeUInt32BE(moov.length + 1_000_000);
        return Buffer.concat([ftyp, moov]);
      },
    ],
    [
      "a box smaller than its header",
      () => Buffer.concat([ftyp, Buffer.from([0, 0, 0, 1]), Buffer.from("free")]),
    ],
    ["10^5 tiny boxes", () => Buffer.concat([ftyp, ...Array.from({ length: 100_000 }, () => box("free"))])],
  ])("%s: 400 UNSUPPORTED_MEDIA_TYPE, nothing stored", async (_, make) => {
    const res = await send(make());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorCode: "UNSUPPORTED_MEDIA_TYPE" });
    expect(res.body).toContain("video metadata could not be removed");
    expect(await t.app.db.file.count({ where: { name: { startsWith: "hostile" } } })).toBe(0);
  });

  it("a zero-size box (to the end) and a nesting bomb are walked within bounds and stored", async () => {
    let nested = box("\u00a9xyz", Buffer.from(LOCATION));
    for (let depth = 0; depth < 2_000; depth++) nested = box("udta", nested);
    const zero = Buffer.concat([Buffer.from([0, 0, 0, 0]), Buffer.from("mdat"), Buffer.alloc(64)]);
    const res = await send(Buffer.concat([ftyp, box("moov", nested), zero]));
    expect(res.statusCode).toBe(200);
  });
});
