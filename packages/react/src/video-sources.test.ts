import { buildVideoTransform } from "@trove/sdk/transform";
import { describe, expect, it } from "vitest";
import { videoSources } from "./video-sources.js";

const ASSETS = "http://127.0.0.1:1/assets";
const where = { assetsUrl: ASSETS, workspaceNo: "ws1" };
/** An upload result / list row: workspace and path, as the server returns them. */
const record = { file_no: "f1", workspace_no: "ws1", path: "clips/surf day.mp4", name: "surf day.mp4" };

describe("videoSources", () => {
  it("plays the MP4 delivery URL by default, with the thumb_ar still as poster", () => {
    expect(videoSources({ src: record, ...where })).toEqual({
      primary: { kind: "mp4", url: `${ASSETS}/ws1/clips/surf%20day.mp4` },
      mp4: `${ASSETS}/ws1/clips/surf%20day.mp4`,
      poster: `${ASSETS}/ws1/thumb_ar/clips/surf%20day.mp4`,
    });
  });

  it("streaming heights give the HLS master playlist at the ladder's URL", () => {
    const sources = videoSources({ src: "ws1/clips/a.mp4", streaming: [240, 360, 480, 720], ...where });
    expect(sources.primary).toEqual({
      kind: "hls",
      url: `${ASSETS}/ws1/st_240_360_480_720/clips/a.mp4/ar-master.m3u8`,
    });
    expect(sources.mp4).toBe(`${ASSETS}/ws1/clips/a.mp4`);
  });

  it("a transform string or the SDK builder's output shapes the MP4 (and the fallback of a stream)", () => {
    const built = buildVideoTransform({ startOffset: 2, endOffset: 8, width: 401 });
    expect(built).toBe("so_2,eo_8,w_402");
    for (const transform of ["so_2,eo_8,w_402", built]) {
      const plain = videoSources({ src: record, transform, ...where });
      expect(plain.primary.url).toBe(`${ASSETS}/ws1/so_2,eo_8,w_402/clips/surf%20day.mp4`);
      const streamed = videoSources({ src: record, transform, streaming: [360], ...where });
      expect(streamed.primary.url).toBe(`${ASSETS}/ws1/st_360/clips/surf%20day.mp4/ar-master.m3u8`);
      expect(streamed.mp4).toBe(plain.mp4);
      // The poster is the untransformed file's still.
      expect(streamed.poster).toBe(`${ASSETS}/ws1/thumb_ar/clips/surf%20day.mp4`);
    }
    expect(videoSources({ src: record, transform: "", ...where }).mp4).toBe(
      `${ASSETS}/ws1/clips/surf%20day.mp4`,
    );
  });

  it("poster: false gives none, a string is used as given", () => {
    expect(videoSources({ src: record, poster: false, ...where }).poster).toBeUndefined();
    expect(videoSources({ src: record, poster: "/covers/surf.jpg", ...where }).poster).toBe(
      "/covers/surf.jpg",
    );
    expect(videoSources({ src: record, poster: true, ...where }).poster).toContain("/thumb_ar/");
  });

  it("a delivery URL as src keeps its host", () => {
    const sources = videoSources({ src: "https://cdn.example/ws9/a.mp4", streaming: [240, 360] });
    expect(sources.primary.url).toBe("https://cdn.example/ws9/st_240_360/a.mp4/ar-master.m3u8");
    expect(sources.poster).toBe("https://cdn.example/ws9/thumb_ar/a.mp4");
  });

  it("refuses heights outside the ladder's grammar and invalid video transforms, naming them", () => {
    expect(() => videoSources({ src: record, streaming: [360, 240], ...where })).toThrow(
      /streaming heights must be ascending and unique/,
    );
    expect(() => videoSources({ src: record, streaming: [100], ...where })).toThrow(/144\.\.2160/);
    expect(() => videoSources({ src: record, streaming: [], ...where })).toThrow(/Invalid streaming heights/);
    expect(() => videoSources({ src: record, transform: "so_1,eo_2,d_3", ...where })).toThrow(
      /use eo_ or d_, not both/,
    );
  });
});
