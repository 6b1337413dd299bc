import { describe, expect, it } from "vitest";
import { fileListRow } from "../test/support/fixtures.js";
import { ASSETS_URL, testClient } from "../test/support/msw-server.js";
import { TroveError } from "./internal/errors.js";
import { buildVideoTransform, parseVideoTransform, TransformParseError } from "./transform.js";

const clip = {
  ...fileListRow,
  name: "clip.mp4",
  path: "videos/clip.mp4",
  url: `${ASSETS_URL}/ws1/videos/clip.mp4`,
};

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

describe("buildVideoTransform", () => {
  it("writes the hosted examples canonically", () => {
    expect(buildVideoTransform({ thumbnail: true })).toBe("thumb_ar");
    expect(buildVideoTransform({ width: 400, startOffset: 5, endOffset: 15 })).toBe("so_5,eo_15,w_400");
    expect(buildVideoTransform({ format: "gif", width: 400, startOffset: 5, duration: 10 })).toBe(
      "so_5,d_10,w_400,f_gif",
    );
    expect(
      buildVideoTransform({ width: 400, height: 400, cropMode: "pad_resize", background: "white" }),
    ).toBe("w_400,h_400,cm_pad_resize,bg_white");
    expect(buildVideoTransform({ width: 400, aspectRatio: "16:9", background: { blurred: 10 } })).toBe(
      "w_400,ar_16:9,bg_blurred_10",
    );
    expect(buildVideoTransform({ rotate: 90, flip: "hv", width: 400 })).toBe("w_400,flip_hv,r_90");
  });

  it("applies the grammar's decisions: even sizes, reduced ratios, hex colours by name, no-ops dropped", () => {
    expect(buildVideoTransform({ width: 401, aspectRatio: { w: 32, h: 18 }, background: "FF0000" })).toBe(
      "w_402,ar_16:9,bg_red",
    );
    expect(buildVideoTransform({ startOffset: 1.5, endOffset: 2.25 })).toBe("so_1.5,eo_2.25");
    expect(buildVideoTransform({ startOffset: 0, rotate: 0, thumbnail: false })).toBe("");
    expect(buildVideoTransform({})).toBe("");
  });

  it("throws the grammar's TransformParseError, naming the directive", () => {
    const both = thrown(() => buildVideoTransform({ endOffset: 5, duration: 2 }));
    expect(both).toBeInstanceOf(TransformParseError);
    expect((both as Error).message).toBe("d_2: use eo_ or d_, not both");
    expect(() => buildVideoTransform({ width: 5000 })).toThrow("w_5000: width must be 1..4320 for video");
    expect(() => buildVideoTransform({ rotate: 45 as 90 })).toThrow(
      /^r_45: rotation must be 0, 90, 180 or 270/,
    );
    expect(() => buildVideoTransform({ startOffset: 1.2345 })).toThrow(/^so_1\.2345: /);
  });

  it("gives what parseVideoTransform reads back", () => {
    expect(parseVideoTransform(buildVideoTransform({ thumbnail: true, startOffset: 3, width: 320 }))).toEqual(
      {
        thumb: true,
        so: 3,
        w: 320,
      },
    );
  });
});

describe("client.url with a video transform", () => {
  const client = testClient();

  it("puts a built or written video transform in front of the path", () => {
    expect(client.url(clip, buildVideoTransform({ startOffset: 5, endOffset: 15, width: 400 }))).toBe(
      `${ASSETS_URL}/ws1/so_5,eo_15,w_400/videos/clip.mp4`,
    );
    expect(client.url(clip, "thumb_ar")).toBe(`${ASSETS_URL}/ws1/thumb_ar/videos/clip.mp4`);
    // Checked, then kept as written, as image strings are.
    expect(client.url(clip, "w_400,so_5")).toBe(`${ASSETS_URL}/ws1/w_400,so_5/videos/clip.mp4`);
  });

  it("refuses an invalid video string with the video grammar's message", () => {
    const error = thrown(() => client.url(clip, "so_5,eo_2"));
    expect(error).toBeInstanceOf(TroveError);
    expect(error).toMatchObject({
      code: "INVALID_ARGUMENT",
      message: "Invalid transform: eo_2: end offset must be after the start offset (5 s)",
    });
    expect(() => client.url(clip, "w_400,so_5,e_grayscale")).toThrow(
      "Invalid transform: e_grayscale: e_ does not apply to video",
    );
    // No video key: the image grammar's message, as before.
    expect(() => client.url(clip, "q_200")).toThrow("Invalid transform: q_200: quality must be 1..100");
  });
});

describe("client.streamingUrl", () => {
  const client = testClient();

  it("builds {assets}/{ws}/st_{heights}/{path}/ar-master.m3u8", () => {
    expect(client.streamingUrl(clip, [240, 360, 480, 720])).toBe(
      `${ASSETS_URL}/ws1/st_240_360_480_720/videos/clip.mp4/ar-master.m3u8`,
    );
    expect(client.streamingUrl("ws1/videos/my clip.mp4", [360])).toBe(
      `${ASSETS_URL}/ws1/st_360/videos/my%20clip.mp4/ar-master.m3u8`,
    );
  });

  it.each([
    [[], "Invalid streaming heights: st_: streaming heights must be integers, st_{height}_{height}..."],
    [[360, 240], "Invalid streaming heights: st_360_240: streaming heights must be ascending and unique"],
    [[100], "Invalid streaming heights: st_100: streaming heights must be 144..2160"],
    [
      [240.5],
      "Invalid streaming heights: st_240.5: streaming heights must be integers, st_{height}_{height}...",
    ],
  ])("refuses the heights %j", (heights, message) => {
    const error = thrown(() => client.streamingUrl(clip, heights));
    expect(error).toBeInstanceOf(TroveError);
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT", message });
  });
});
