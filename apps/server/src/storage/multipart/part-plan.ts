/**
 * How a multipart upload is cut into parts, and the checks every store applies to a plan, a part
 * and a complete request. Limits are S3's: parts of at least 5 MiB (except the last), at most
 * 10,000 parts, at most 5 GiB per part and 5 TiB per object. Part sizes are whole MiB, so every
 * part starts on a content-hash block boundary (block-hash.ts).
 */
import { BLOCK_SIZE } from "../../content-hash/index.js";
import { InvalidPartError, InvalidUploadPlanError } from "./errors.js";

export const MIB = 1024 * 1024;
export const MIN_PART_SIZE = 5 * MIB;
export const MAX_PART_SIZE = 5 * 1024 * MIB;
export const MAX_PARTS = 10_000;
export const MAX_OBJECT_SIZE = 5 * 1024 * 1024 * MIB;

export interface PartPlan {
  /** Bytes per part; every part but the last has exactly this size. */
  partSize: number;
  partCount: number;
}

/**
 * The part size for an object of `size` bytes: `minPartSize` (default and lower bound 5 MiB),
 * grown in whole MiB just enough to keep the count within 10,000 parts.
 */
export function choosePartSize(size: number, { minPartSize = MIN_PART_SIZE } = {}): PartPlan {
  if (!Number.isSafeInteger(size) || size < 1) throw new InvalidUploadPlanError(`Invalid size: ${size}`);
  if (size > MAX_OBJECT_SIZE) throw new InvalidUploadPlanError(`Size exceeds ${MAX_OBJECT_SIZE} bytes`);
  if (!Number.isSafeInteger(minPartSize) || minPartSize < MIN_PART_SIZE || minPartSize % MIB !== 0) {
    throw new InvalidUploadPlanError(`minPartSize must be a whole number of MiB, at least 5 MiB`);
  }
  const needed = Math.ceil(size / MAX_PARTS / MIB) * MIB;
  const partSize = Math.min(Math.max(minPartSize, needed), MAX_PART_SIZE);
  return { partSize, partCount: Math.ceil(size / partSize) };
}

/**
 * A plan of about `targetParts` parts: the part size grows with the object, in whole MiB, from
 * 5 MiB up to `maxPartSize` (beyond it only to stay within 10,000 parts). For stores where a part
 * costs a request through Trove (signature, session lookup, part record, response) and nothing
 * in storage itself, so that a large upload is a few dozen requests rather than hundreds.
 */
export function choosePartSizeForParts(
  size: number,
  { targetParts, maxPartSize }: { targetParts: number; maxPartSize: number },
): PartPlan {
  const wanted = Number.isSafeInteger(size) && size > 0 ? Math.ceil(size / targetParts / MIB) * MIB : 0;
  return choosePartSize(size, { minPartSize: Math.min(maxPartSize, Math.max(MIN_PART_SIZE, wanted)) });
}

/** Size of part `partNumber` (1-based) under a plan for `size` bytes. */
export function plannedPartSize(size: number, partSize: number, partNumber: number): number {
  const partCount = Math.max(1, Math.ceil(size / partSize));
  if (partNumber < partCount) return partSize;
  return size - (partCount - 1) * partSize;
}

/**
 * Checks a plan as `begin` receives it. `minPartSize` is the store's floor for non-final parts
 * (S3: 5 MiB; the fs store only needs whole blocks).
 */
export function assertValidPlan(
  plan: { size: number; partSize: number; partCount: number },
  { minPartSize }: { minPartSize: number },
): void {
  const { size, partSize, partCount } = plan;
  if (!Number.isSafeInteger(size) || size < 1 || size > MAX_OBJECT_SIZE) {
    throw new InvalidUploadPlanError(`Invalid size: ${size}`);
  }
  if (!Number.isSafeInteger(partSize) || partSize < BLOCK_SIZE || partSize % BLOCK_SIZE !== 0) {
    throw new InvalidUploadPlanError(`partSize must be a positive multiple of ${BLOCK_SIZE} bytes`);
  }
  if (partSize > MAX_PART_SIZE) throw new InvalidUploadPlanError(`partSize exceeds ${MAX_PART_SIZE} bytes`);
  if (partCount !== Math.ceil(size / partSize)) {
    throw new InvalidUploadPlanError(
      `partCount ${partCount} does not match size ${size} / partSize ${partSize}`,
    );
  }
  if (partCount > MAX_PARTS) throw new InvalidUploadPlanError(`More than ${MAX_PARTS} parts`);
  if (partCount > 1 && partSize < minPartSize) {
    throw new InvalidUploadPlanError(`partSize must be at least ${minPartSize} bytes`);
  }
}

/** Checks the arguments of `putPart` that need no stored state. */
export function assertValidPartRequest(input: {
  partNumber: number;
  partSize: number;
  expectedSize: number;
}): void {
  const { partNumber, partSize, expectedSize } = input;
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PARTS) {
    throw new InvalidPartError(`Part number must be an integer from 1 to ${MAX_PARTS}`, partNumber);
  }
  if (!Number.isSafeInteger(partSize) || partSize < BLOCK_SIZE || partSize % BLOCK_SIZE !== 0) {
    throw new InvalidPartError(`partSize must be a positive multiple of ${BLOCK_SIZE} bytes`, partNumber);
  }
  if (!Number.isSafeInteger(expectedSize) || expectedSize < 0 || expectedSize > partSize) {
    throw new InvalidPartError(`expectedSize must be from 0 to partSize (${partSize})`, partNumber);
  }
}

export interface CompletePart {
  number: number;
  etag: string;
  size: number;
}

/**
 * Checks a complete request's part list: numbers 1..n, each once; every part but the last of
 * the same size, the last no larger; optionally against a plan. Returns the parts sorted and the
 * total size.
 */
export function assertCompleteParts(
  parts: readonly CompletePart[],
  plan?: { size: number; partSize: number; partCount: number },
): { sorted: CompletePart[]; size: number } {
  if (!Array.isArray(parts) || parts.length === 0) throw new InvalidPartError("No parts to complete");
  if (parts.length > MAX_PARTS) throw new InvalidPartError(`More than ${MAX_PARTS} parts`);
  const sorted = [...parts].sort((a, b) => a.number - b.number);
  let size = 0;
  sorted.forEach((part, index) => {
    if (part.number !== index + 1) {
      throw new InvalidPartError(
        part.number === index ? `Part ${part.number} listed twice` : `Part ${index + 1} is missing`,
        index + 1,
      );
    }
    if (typeof part.etag !== "string" || part.etag === "")
      throw new InvalidPartError("Missing ETag", part.number);
    if (!Number.isSafeInteger(part.size) || part.size < 0)
      throw new InvalidPartError("Invalid size", part.number);
    size += part.size;
  });
  const first = sorted[0]!.size;
  for (const part of sorted.slice(0, -1)) {
    if (part.size !== first)
      throw new InvalidPartError("Parts before the last must have equal sizes", part.number);
  }
  if (sorted.length > 1 && sorted[sorted.length - 1]!.size > first) {
    throw new InvalidPartError("The last part is larger than the others", sorted.length);
  }
  if (plan) {
    if (sorted.length !== plan.partCount) {
      throw new InvalidPartError(`Expected ${plan.partCount} parts, got ${sorted.length}`);
    }
    for (const part of sorted) {
      const expected = plannedPartSize(plan.size, plan.partSize, part.number);
      if (part.size !== expected) {
        throw new InvalidPartError(
          `Part ${part.number} must be ${expected} bytes, not ${part.size}`,
          part.number,
        );
      }
    }
  }
  return { sorted, size };
}
