/**
 * tus bytes on drivers with multipart uploads (s3): the upload is the driver's multipart upload
 * of the file's key, begun at creation with a fixed part plan (the store's, else 5 MiB parts or
 * more). A PATCH fills parts in memory and stores each as it is whole (the last part smaller);
 * the bytes short of a whole part when the PATCH ends wait in a tail object
 * (`tus/<workspaceId>/<uploadId>.tail`) and, in this process, in memory, so the next PATCH,
 * here or on another instance, goes on from there. Parts' block digests (recorded on the row)
 * give the content hash: nothing is read back at the end.
 */
import { Readable } from "node:stream";
import { combinePartBlockDigests } from "../content-hash/index.js";
import type { TusUpload } from "../generated/prisma/client.js";
import type { StorageDriver } from "../storage/driver.js";
import { choosePartSize, type MultipartStore, type PartPlan } from "../storage/multipart/index.js";
import { type TusBytes, type TusPart, tusTempKey } from "./tus-bytes.js";

export type MultipartDriver = StorageDriver & { multipart: MultipartStore };

function partsOf(row: TusUpload): TusPart[] {
  return Array.isArray(row.parts) ? (row.parts as unknown as TusPart[]) : [];
}

function tailKey(row: TusUpload): string {
  return `${tusTempKey(row.workspaceId, row.id)}.tail`;
}

export function s3TusBytes(driver: MultipartDriver): TusBytes {
  const store = driver.multipart;
  /** Tails this process wrote last, by upload id. */
  const tails = new Map<string, Buffer>();
  const planOf = (length: number): PartPlan =>
    store.planParts ? store.planParts(length) : choosePartSize(length);

  const readTail = async (row: TusUpload, expected: number): Promise<Buffer> => {
    if (expected === 0) return Buffer.alloc(0);
    const kept = tails.get(row.id);
    if (kept?.length === expected) return kept;
    const stored = Buffer.concat(await (await driver.get(tailKey(row))).toArray());
    if (stored.length !== expected)
      throw new Error(`tus: tail of ${row.id} is ${stored.length} bytes, not ${expected}`);
    return stored;
  };

  return {
    keyFor: (_workspaceId, _uploadId, finalKey) => finalKey,

    async create(row) {
      const length = Number(row.uploadLength);
      const plan = planOf(length);
      const { uploadId } = await store.begin({
        key: row.storageKey,
        size: length,
        partSize: plan.partSize,
        partCount: plan.partCount,
      });
      return { storageUploadId: uploadId };
    },

    async write(row, offset, body) {
      const length = Number(row.uploadLength);
      const { partSize } = planOf(length);
      const parts = [...partsOf(row)];
      const partStart = parts.length * partSize;
      let pending: Buffer[] = [await readTail(row, offset - partStart)];
      let filled = pending[0]?.length ?? 0;
      let error: unknown;
      const storePart = async () => {
        const number = parts.length + 1;
        const stored = await store.putPart({
          key: row.storageKey,
          uploadId: row.storageUploadId as string,
          partNumber: number,
          partSize,
          body: Readable.from([Buffer.concat(pending)]),
          expectedSize: filled,
        });
        parts.push({ number, etag: stored.etag, size: stored.size, blockDigests: stored.blockDigests });
        pending = [];
        filled = 0;
      };
      try {
        for await (const incoming of body) {
          let chunk = incoming;
          while (chunk.length > 0) {
            const partLength = Math.min(partSize, length - parts.length * partSize);
            const take = Math.min(partLength - filled, chunk.length);
            pending.push(chunk.subarray(0, take));
            filled += take;
            chunk = chunk.subarray(take);
            if (filled === partLength) await storePart();
          }
        }
      } catch (cause) {
        error = cause;
      }
      const tail = Buffer.concat(pending);
      if (tail.length > 0) await driver.put(tailKey(row), tail);
      else await driver.delete(tailKey(row));
      tails.set(row.id, tail);
      const stored = parts.reduce((sum, part) => sum + part.size, 0);
      const written = stored + tail.length - offset;
      return error === undefined ? { written, parts } : { written, parts, error };
    },

    contentHash: (row) => combinePartBlockDigests(partsOf(row)),

    async finish(row) {
      if (!row.storageUploadId) return;
      await store.complete({
        key: row.storageKey,
        uploadId: row.storageUploadId,
        parts: partsOf(row).map(({ number, etag, size }) => ({ number, etag, size })),
      });
      await driver.delete(tailKey(row));
      tails.delete(row.id);
    },

    async remove(row) {
      if (row.storageUploadId) await store.abort({ key: row.storageKey, uploadId: row.storageUploadId });
      await driver.delete(tailKey(row));
      tails.delete(row.id);
    },
  };
}
