import { describe, expect, it } from "vitest";
import { InvalidPartError, InvalidUploadPlanError } from "./errors.js";
import {
  assertCompleteParts,
  assertValidPlan,
  choosePartSize,
  choosePartSizeForParts,
  MAX_PARTS,
  plannedPartSize,
} from "./part-plan.js";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const TiB = 1024 * GiB;

describe("choosePartSize", () => {
  it.each([
    ["1 B", 1, 5 * MiB, 1],
    ["5 MiB", 5 * MiB, 5 * MiB, 1],
    ["5 MiB + 1", 5 * MiB + 1, 5 * MiB, 2],
    ["48.8 GiB (10,000 x 5 MiB)", 10_000 * 5 * MiB, 5 * MiB, 10_000],
    ["50 GiB", 50 * GiB, 6 * MiB, 8534],
    ["5 TiB", 5 * TiB, 525 * MiB, 9987],
  ])("%s -> parts of %i bytes, %i parts", (_label, size, partSize, partCount) => {
    const plan = choosePartSize(size);
    expect(plan).toEqual({ partSize, partCount });
    expect(plan.partSize % MiB).toBe(0);
    expect(plan.partCount).toBeLessThanOrEqual(MAX_PARTS);
    expect((plan.partCount - 1) * plan.partSize).toBeLessThan(size);
    expect(plan.partCount * plan.partSize).toBeGreaterThanOrEqual(size);
  });

  it("honours a larger minimum part size", () => {
    expect(choosePartSize(100 * MiB, { minPartSize: 16 * MiB })).toEqual({
      partSize: 16 * MiB,
      partCount: 7,
    });
  });

  it.each([0, -1, 1.5, Number.NaN, 5 * TiB + 1])("rejects size %s", (size) => {
    expect(() => choosePartSize(size)).toThrow(InvalidUploadPlanError);
  });

  it("plans the last part as the remainder", () => {
    expect(plannedPartSize(12 * MiB + 3, 5 * MiB, 1)).toBe(5 * MiB);
    expect(plannedPartSize(12 * MiB + 3, 5 * MiB, 3)).toBe(2 * MiB + 3);
    expect(plannedPartSize(5 * MiB, 5 * MiB, 1)).toBe(5 * MiB);
  });
});

describe("choosePartSizeForParts (about 32 parts, 5 to 32 MiB)", () => {
  const fewer = (size: number) => choosePartSizeForParts(size, { targetParts: 32, maxPartSize: 32 * MiB });

  it.each([
    ["1 B", 1, 5 * MiB, 1],
    ["160 MiB: the 5 MiB floor", 160 * MiB, 5 * MiB, 32],
    ["160 MiB + 1: whole MiB above it", 160 * MiB + 1, 6 * MiB, 27],
    ["1 GiB", GiB, 32 * MiB, 32],
    ["2 GiB: the 32 MiB cap", 2 * GiB, 32 * MiB, 64],
    ["400 GiB: grown past the cap for 10,000 parts", 400 * GiB, 41 * MiB, 9991],
  ])("%s -> parts of %i bytes, %i parts", (_label, size, partSize, partCount) => {
    const plan = fewer(size);
    expect(plan).toEqual({ partSize, partCount });
    expect(() => assertValidPlan({ size, ...plan }, { minPartSize: 5 * MiB })).not.toThrow();
  });

  it.each([0, -1, 1.5, Number.NaN, 5 * TiB + 1])("rejects size %s like choosePartSize", (size) => {
    expect(() => fewer(size)).toThrow(InvalidUploadPlanError);
  });
});

describe("plan and part-list checks", () => {
  it("rejects plans that do not add up", () => {
    const ok = { size: 12 * MiB, partSize: 5 * MiB, partCount: 3 };
    expect(() => assertValidPlan(ok, { minPartSize: 5 * MiB })).not.toThrow();
    expect(() => assertValidPlan({ ...ok, partCount: 2 }, { minPartSize: 5 * MiB })).toThrow(
      InvalidUploadPlanError,
    );
    expect(() => assertValidPlan({ ...ok, partSize: 5 * MiB + 1 }, { minPartSize: 5 * MiB })).toThrow(
      InvalidUploadPlanError,
    );
    expect(() =>
      assertValidPlan({ size: 3 * MiB, partSize: MiB, partCount: 3 }, { minPartSize: 5 * MiB }),
    ).toThrow(InvalidUploadPlanError);
  });

  it("accepts 1..n in any order and rejects gaps, duplicates and odd sizes", () => {
    const parts = [
      { number: 2, etag: "b", size: 5 },
      { number: 1, etag: "a", size: 5 },
      { number: 3, etag: "c", size: 2 },
    ];
    expect(assertCompleteParts(parts)).toEqual({ sorted: [parts[1], parts[0], parts[2]], size: 12 });
    expect(() => assertCompleteParts([])).toThrow(InvalidPartError);
    expect(() => assertCompleteParts(parts.slice(0, 1))).toThrow(/Part 1 is missing/);
    expect(() => assertCompleteParts([...parts, { number: 3, etag: "d", size: 2 }])).toThrow(/twice/);
    expect(() => assertCompleteParts([{ ...parts[1]!, size: 4 }, parts[0]!, parts[2]!])).toThrow(
      InvalidPartError,
    );
    expect(() => assertCompleteParts(parts, { size: 13, partSize: 5, partCount: 3 })).toThrow(
      /must be 3 bytes/,
    );
  });
});
