/**
 * Where a tus upload's bytes go while they arrive, per storage driver. The store
 * (./tus-store.ts) feeds every chunk to the content hasher itself, so a sink only writes.
 *
 * - `fsTusBytes`: drivers whose objects are local files (`localPath`): the bytes are written
 *   in place into a temporary object (`tus/<workspaceId>/<uploadId>`, a key no upload or sweep
 *   of stored files uses), at the upload's offset, and renamed onto the file's key at the end:
 *   no copy, no second read.
 */
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { Readable } from "node:stream";
import type { StorageDriver } from "../storage/driver.js";

export interface WriteOutcome {
  /** Bytes now stored after the offset the write began at (kept even when the body broke). */
  written: number;
  /** What broke the body, if it broke; the bytes before it are stored. */
  error?: unknown;
}

export interface TusBytes {
  /** Makes the empty object an upload is written into. */
  create(tempKey: string): Promise<void>;
  /** Writes `body` at `offset`, calling `onChunk` for each chunk once it is handed to storage. */
  write(
    tempKey: string,
    offset: number,
    body: AsyncIterable<Buffer>,
    onChunk: (chunk: Buffer) => void,
  ): Promise<WriteOutcome>;
  /** The first `end` bytes stored (to hash them again in a process that did not see them arrive). */
  readPrefix(tempKey: string, end: number): Promise<Readable>;
  /** Moves the whole upload onto the file's key. */
  finish(tempKey: string, finalKey: string): Promise<void>;
  /** Deletes what the upload stored; a missing object is not an error. */
  remove(tempKey: string): Promise<void>;
}

/** The temporary key of an upload's bytes. */
export function tusTempKey(workspaceId: string, uploadId: string): string {
  return `tus/${workspaceId}/${uploadId}`;
}

export type LocalDriver = StorageDriver & { localPath(key: string): string };

export function hasLocalPaths(driver: StorageDriver): driver is LocalDriver {
  return typeof driver.localPath === "function";
}

export function fsTusBytes(driver: LocalDriver): TusBytes {
  return {
    async create(tempKey) {
      const path = driver.localPath(tempKey);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, "", { flag: "wx" });
    },

    async write(tempKey, offset, body, onChunk) {
      // r+: bytes past `offset` from a PATCH that broke are overwritten, never appended after.
      const out = createWriteStream(driver.localPath(tempKey), { flags: "r+", start: offset });
      const opened = new Promise<void>((resolve, reject) => {
        out.once("open", () => resolve());
        out.once("error", reject);
      });
      await opened;
      let written = 0;
      let error: unknown;
      let writeError: unknown;
      out.on("error", (cause) => {
        writeError = cause;
      });
      try {
        for await (const chunk of body) {
          if (writeError) break;
          onChunk(chunk);
          written += chunk.length;
          if (!out.write(chunk)) await waitDrain(out);
        }
      } catch (cause) {
        error = cause;
      }
      await new Promise<void>((resolve) => out.end(resolve));
      if (writeError) throw writeError;
      return error === undefined ? { written } : { written, error };
    },

    async readPrefix(tempKey, end) {
      if (end === 0) return Readable.from([]);
      return driver.get(tempKey, { range: { start: 0, end: end - 1 } });
    },

    async finish(tempKey, finalKey) {
      const target = driver.localPath(finalKey);
      await mkdir(dirname(target), { recursive: true });
      await rename(driver.localPath(tempKey), target);
    },

    async remove(tempKey) {
      await rm(driver.localPath(tempKey), { force: true });
    },
  };
}

function waitDrain(out: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      out.off("error", onError);
      resolve();
    };
    const onError = (error: unknown) => {
      out.off("drain", onDrain);
      reject(error);
    };
    out.once("drain", onDrain);
    out.once("error", onError);
  });
}
