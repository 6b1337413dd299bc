/**
 * The original of a video as a file on this machine, for ffprobe and ffmpeg, which read a path
 * (never a pipe: the MP4 demuxer seeks, and a pipe would need the `pipe` protocol's buffering):
 * the object's own file when the storage driver keeps objects as local files, else a copy under
 * `workDir` (the data dir's tmp), bounded by `maxBytes` and removed with it.
 */
import { createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { StorageDriver } from "../storage/driver.js";

/** The original is larger than the media input limit: no render is attempted. */
export class VideoInputTooLargeError extends Error {
  override name = "VideoInputTooLargeError";
  readonly code = "VIDEO_TOO_LARGE";
}

export async function localVideoInput(
  storage: Pick<StorageDriver, "get" | "localPath">,
  key: string,
  workDir: string,
  maxBytes: number,
): Promise<string> {
  const tooLarge = () =>
    new VideoInputTooLargeError(`The video is larger than the media input limit (${maxBytes} bytes)`);
  if (storage.localPath) {
    const path = storage.localPath(key);
    if ((await stat(path)).size > maxBytes) throw tooLarge();
    return path;
  }
  const path = join(workDir, "input");
  let seen = 0;
  const bound = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > maxBytes ? tooLarge() : null, chunk);
    },
  });
  await pipeline(await storage.get(key), bound, createWriteStream(path, { flags: "wx", mode: 0o600 }));
  return path;
}
