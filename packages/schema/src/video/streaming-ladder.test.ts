import { describe, expect, it } from "vitest";
import { MAX_TRANSFORM_LENGTH } from "../transform/limits.js";
import { TransformParseError } from "../transform/transform-parse-error.js";
import { parseStreamingLadder, streamingStepHeights } from "./streaming-ladder.js";

describe("parseStreamingLadder", () => {
  it("reads the rendition heights", () => {
    expect(parseStreamingLadder("st_240_360_480_720")).toEqual([240, 360, 480, 720]);
    expect(parseStreamingLadder("st_144")).toEqual([144]);
    expect(parseStreamingLadder("st_144_2160")).toEqual([144, 2160]);
  });

  it.each([
    ["st_", "st_: streaming heights must be integers, st_{height}_{height}..."],
    ["st_240_", "st_240_: streaming heights must be integers, st_{height}_{height}..."],
    ["st_0240", "st_0240: streaming heights must be integers, st_{height}_{height}..."],
    ["st_143", "st_143: streaming heights must be 144..2160"],
    ["st_240_2161", "st_240_2161: streaming heights must be 144..2160"],
    ["st_360_240", "st_360_240: streaming heights must be ascending and unique"],
    ["st_240_240", "st_240_240: streaming heights must be ascending and unique"],
    ["st_1e3", "st_1e3: streaming heights must be integers, st_{height}_{height}..."],
    ["w_240", "w_240: a streaming ladder is st_{height}_{height}..."],
    [
      "st_144_200_300_400_500_600_700_800_900",
      "st_144_200_300_400_500_600_700_800_900: a streaming ladder has at most 8 heights",
    ],
  ])("refuses %j", (step, message) => {
    let error: unknown;
    try {
      parseStreamingLadder(step);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TransformParseError);
    expect((error as TransformParseError).message).toBe(message);
  });

  it("refuses long input before splitting it", () => {
    expect(() => parseStreamingLadder(`st_${"240_".repeat(MAX_TRANSFORM_LENGTH)}`)).toThrow(
      `streaming ladder is longer than ${MAX_TRANSFORM_LENGTH} characters`,
    );
  });
});

describe("streamingStepHeights", () => {
  it("reads processing as the default ladder, st_ as its own, anything else as no stream", () => {
    expect(streamingStepHeights("processing")).toEqual([240, 360, 480, 720, 1080]);
    expect(streamingStepHeights("st_360_720")).toEqual([360, 720]);
    expect(streamingStepHeights("w_100")).toBeNull();
    expect(() => streamingStepHeights("st_100")).toThrow(/144..2160/);
  });
});
