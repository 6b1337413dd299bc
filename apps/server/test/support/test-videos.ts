/**
 * Small videos made at test time with the ffmpeg on PATH (never committed), and ffprobe's reading
 * of a stored one: its duration, streams and container tags.
 *
 *   const clip = await makeTestVideo(dir, "clip.mov", ["-metadata", "make=Phone"]);   // 2 s, 320×240, H.264 + AAC
 *   const { durationSeconds, streams, tags } = await probeFile(path);
 *   const app = await createTestApp({ storage: withoutLocalFiles(dir) });               // an S3-like store
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { StorageDriver } from "../../src/storage/driver.js";
import { FsStorageDriver } from "../../src/storage/fs-driver.js";

const run = promisify(execFile);

/** A 2-second 320×240 H.264 + AAC clip; `extra` goes before the output name (metadata, movflags). */
export async function makeTestVideo(
  dir: string,
  name: string,
  extra: string[] = [],
  { seconds = 2, bitrate }: { seconds?: number; bitrate?: string } = {},
): Promise<Buffer> {
  const output = join(dir, name);
  await run("ffmpeg", [
    ...["-loglevel", "error", "-y", "-nostdin"],
    ...["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25"],
    ...["-f", "lavfi", "-i", "sine=frequency=440"],
    ...["-t", String(seconds), "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"],
    ...(bitrate ? ["-b:v", bitrate, "-preset", "ultrafast"] : []),
    ...extra,
    output,
  ]);
  return readFile(output);
}

export interface ProbedFile {
  durationSeconds: number;
  streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
  /** Container tags, keys lowercased (`location`, `location-eng`, `make`, `com.apple.quicktime.make`). */
  tags: Record<string, string>;
}

export async function probeFile(path: string): Promise<ProbedFile> {
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-of", "json", "-show_format", "-show_streams"],
    path,
  ]);
  const parsed = JSON.parse(stdout) as {
    format: { duration?: string; tags?: Record<string, string> };
    streams: ProbedFile["streams"];
  };
  const tags = Object.fromEntries(
    Object.entries(parsed.format.tags ?? {}).map(([key, value]) => [key.toLowerCase(), value]),
  );
  return { durationSeconds: Number(parsed.format.duration), streams: parsed.streams, tags };
}

/** Whether any tag names a location (QuickTime `©xyz`, 3GPP `loci`, Apple's location keys). */
export function hasLocation(tags: Record<string, string>): boolean {
  return Object.keys(tags).some((key) => key.includes("location"));
}

/** Whether any tag names the device (`make`, `model`, `software`, Apple's keys for them). */
export function hasDevice(tags: Record<string, string>): boolean {
  return Object.keys(tags).some((key) => /(^|\.)(make|model|software)$/.test(key));
}

/**
 * An fs store without its `localPath` capability: how an object store (S3) looks to the upload
 * path, which must then read by ranges and write whole objects.
 */
export function withoutLocalFiles(root: string): StorageDriver {
  const fs = new FsStorageDriver(root);
  // The fs driver's own methods (bound: they use its private fields), less `localPath`.
  return new Proxy(fs, {
    get(target, property) {
      if (property === "localPath") return undefined;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    has: (target, property) => property !== "localPath" && Reflect.has(target, property),
  });
}
