import { describe, expect, it } from "vitest";
import { autoWidth, classifyUserAgent, defaultWidth, roundUpToStep } from "./auto-width.js";

const UA = {
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  ipad: "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  pixel:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
  samsung:
    "Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
  androidPhone:
    "Mozilla/5.0 (Linux; Android 11; Redmi Note 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
  androidTablet:
    "Mozilla/5.0 (Linux; Android 13; Lenovo TB-X606F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
  firefoxAndroid: "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0",
  edgeAndroid:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36 EdgA/124.0",
  operaMini: "Opera/9.80 (Android; Opera Mini/36.2.2254/119.132; U; id) Presto/2.12.423 Version/12.16",
  ucBrowser:
    "Mozilla/5.0 (Linux; U; Android 9; en-US; SM-A105F) AppleWebKit/537.36 (KHTML, like Gecko) UCBrowser/13.4.0.1306 Mobile Safari/537.36",
  kaios:
    "Mozilla/5.0 (Mobile; LYF/F300B/LYF-F300B-001-01-15-130718-i; Android; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5",
  mac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  windows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
  chromeos:
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
  curl: "curl/8.5.0",
};

describe("the documented default width (E/automatic.mdx)", () => {
  it.each([
    ["iphone", 1080],
    ["pixel", 1080],
    ["samsung", 1080],
    ["ipad", 1080],
    ["androidTablet", 1080],
    ["mac", 1080],
    ["windows", 1080],
    ["chromeos", 1080],
    ["androidPhone", 720],
    ["firefoxAndroid", 720],
    ["edgeAndroid", 720],
    ["operaMini", 480],
    ["ucBrowser", 480],
    ["kaios", 480],
    ["curl", 720],
  ] as const)("%s → %i", (name, width) => {
    expect(defaultWidth(UA[name], false)).toBe(width);
    expect(autoWidth({ "user-agent": UA[name] }).width).toBe(width);
  });

  it("Save-Data asks a phone for 480; a tablet or desktop keeps its width", () => {
    expect(autoWidth({ "user-agent": UA.iphone, "save-data": "on" }).width).toBe(480);
    expect(autoWidth({ "user-agent": UA.androidPhone, "save-data": "On" }).width).toBe(480);
    expect(autoWidth({ "user-agent": UA.ipad, "save-data": "on" }).width).toBe(1080);
    expect(autoWidth({ "user-agent": UA.mac, "save-data": "on" }).width).toBe(1080);
    expect(autoWidth({ "user-agent": UA.iphone, "save-data": "off" }).width).toBe(1080);
  });

  it("no headers at all is the fallback, 720", () => {
    expect(autoWidth({})).toEqual({
      width: 720,
      vary: ["Sec-CH-Width", "Width", "Sec-CH-Viewport-Width", "Viewport-Width", "User-Agent", "Save-Data"],
    });
  });

  it("reads only the start of a 10 KB User-Agent", () => {
    expect(classifyUserAgent(`${"x".repeat(10_000)} iPhone`)).toBe("unknown");
    expect(classifyUserAgent(`${UA.iphone}${"x".repeat(10_000)}`)).toBe("high-end phone");
  });
});

describe("client hints", () => {
  it("a width hint wins, rounded up to a step, and Vary names only what was read", () => {
    expect(autoWidth({ "sec-ch-width": "500", "user-agent": UA.mac })).toEqual({
      width: 720,
      vary: ["Sec-CH-Width"],
    });
    expect(autoWidth({ width: "1080" })).toEqual({ width: 1080, vary: ["Sec-CH-Width", "Width"] });
  });

  it("a viewport hint is multiplied by the DPR", () => {
    expect(autoWidth({ "sec-ch-viewport-width": "390", "sec-ch-dpr": "3" })).toEqual({
      width: 1440,
      vary: ["Sec-CH-Width", "Width", "Sec-CH-Viewport-Width", "Sec-CH-DPR"],
    });
    expect(autoWidth({ "viewport-width": "390" }).width).toBe(480);
    expect(autoWidth({ "sec-ch-viewport-width": "412", dpr: "2.625" }).width).toBe(1440);
  });

  it.each([
    ["1000000000000", 1920],
    ["99999", 1920],
    ["1", 320],
    ["320", 320],
    ["321", 480],
    ["1921", 1920],
  ])("Width %s → %i", (hint, width) => {
    expect(autoWidth({ "sec-ch-width": hint }).width).toBe(width);
  });

  it.each(["-800", "0", "abc", "1e12", "800px", "Infinity", "NaN", "", " ", "1".repeat(17), "0x400"])(
    "ignores a hostile Width %j and falls back to the User-Agent",
    (hint) => {
      expect(autoWidth({ "sec-ch-width": hint, width: hint, "user-agent": UA.operaMini }).width).toBe(480);
    },
  );

  it("an invalid DPR counts as 1", () => {
    expect(autoWidth({ "sec-ch-viewport-width": "400", "sec-ch-dpr": "-2" }).width).toBe(480);
  });

  it("reads the first of repeated headers", () => {
    expect(autoWidth({ "sec-ch-width": ["300", "1900"] as unknown as string }).width).toBe(320);
  });
});

describe("roundUpToStep", () => {
  it.each([
    [0.5, 320],
    [480, 480],
    [500, 720],
    [650, 720],
    [1500, 1920],
    [1080, 1080],
    [5000, 1920],
  ])("%d → %i", (width, step) => {
    expect(roundUpToStep(width)).toBe(step);
  });
});
