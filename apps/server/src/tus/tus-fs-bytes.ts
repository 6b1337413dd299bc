/**
 * tus bytes on drivers whose objects are local files (`localPath`, the fs driver): written in
 * place into a temporary object (./tus-bytes.ts `tusTempKey`) at the upload's offset, and renamed
 * onto the file's key at the end: no copy, no second read.
 */
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { Readable } from "node:stream";
import type { StorageDriver } from "../storage/driver.js";
import { type TusBytes, tusTempKey } from "./tus-bytes.js";

export type LocalDriver = StorageDriver & { localPath(key: string): string };

export function hasLocalPaths(driver: StorageDriver): driver is LocalDriver {
  return typeof driver.localPath === "function";
}

export function fsTusBytes(driver: LocalDriver): TusBytes {
  return {
    keyFor: (workspaceId, uploadId) => tusTempKey(workspaceId, uploadId),

    async create(row) {
      const path = driver.localPath(row.storageKey);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, "", { flag: "wx" });
      return {};
    },

    async write(row, offset, body, onChunk) {
      // r+: bytes past `offset` from a PATCH that broke are overwritten, never appended after.
      const out = createWriteStream(driver.localPath(row.storageKey), { flags: "r+", start: offset });
      await new Promise<void>((resolve, reject) => {
        out.once("open", () => resolve());
        out.once("error", reject);
      });
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

    async readPrefix(row, end) {
      if (end === 0) return Readable.from([]);
      return driver.get(row.storageKey, { range: { start: 0, end: end - 1 } });
    },

    async finish(row, finalKey) {
      if (row.storageKey === finalKey) return;
      const target = driver.localPath(finalKey);
      const moved = await stat(target).catch(() => null);
      // Renamed already by an attempt whose registration failed: the bytes are at the key.
      if (moved && !(await stat(driver.localPath(row.storageKey)).catch(() => null))) return;
      await mkdir(dirname(target), { recursive: true });
      await rename(driver.localPath(row.storageKey), target);
    },

    async remove(row) {
      await rm(driver.localPath(row.storageKey), { force: true });
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
