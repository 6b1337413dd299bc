import { afterEach, describe, expect, it, vi } from "vitest";
import { TroveError } from "./internal/errors.js";
import troveLoader, { createTroveLoader } from "./next-image.js";

const ASSETS = "https://cdn.example.com/assets";
const loader = createTroveLoader({ assetsUrl: `${ASSETS}/`, workspace: "ws1" });

describe("createTroveLoader (next/image)", () => {
  it("asks the delivery host for Next's width, its quality when given, and f_auto", () => {
    expect(loader({ src: "photos/cat.jpg", width: 640 })).toBe(`${ASSETS}/ws1/w_640,f_auto/photos/cat.jpg`);
    expect(loader({ src: "photos/cat.jpg", width: 1080, quality: 75 })).toBe(
      `${ASSETS}/ws1/w_1080,f_auto,q_75/photos/cat.jpg`,
    );
    const asStored = createTroveLoader({ assetsUrl: ASSETS, workspace: "ws1", format: false });
    expect(asStored({ src: "cat.jpg", width: 32 })).toBe(`${ASSETS}/ws1/w_32/cat.jpg`);
  });

  it("takes a file's delivery URL as src, keeping its encoded path", () => {
    const url = `${ASSETS}/ws1/photos/caf%C3%A9%20au%20lait.jpg`;
    expect(loader({ src: url, width: 384 })).toBe(
      `${ASSETS}/ws1/w_384,f_auto/photos/caf%C3%A9%20au%20lait.jpg`,
    );
    // No workspace needed when the URL names it.
    const urlOnly = createTroveLoader({ assetsUrl: ASSETS });
    expect(urlOnly({ src: url, width: 16 })).toBe(
      `${ASSETS}/ws1/w_16,f_auto/photos/caf%C3%A9%20au%20lait.jpg`,
    );
  });

  it("percent-encodes odd names segment by segment: spaces, #, ?, %, unicode", () => {
    expect(loader({ src: "my photos/a #1?.jpg", width: 640 })).toBe(
      `${ASSETS}/ws1/w_640,f_auto/my%20photos/a%20%231%3F.jpg`,
    );
    expect(loader({ src: "100%/ünï 😀.png", width: 640 })).toBe(
      `${ASSETS}/ws1/w_640,f_auto/100%25/%C3%BCn%C3%AF%20%F0%9F%98%80.png`,
    );
    // What the browser requests is what the server decodes back to the stored path.
    const path = new URL(loader({ src: "my photos/a #1?.jpg", width: 640 })).pathname;
    expect(decodeURIComponent(path.split("/").slice(4).join("/"))).toBe("my photos/a #1?.jpg");
  });

  it("keeps names that look like transforms as the path, after the loader's own step", () => {
    expect(loader({ src: "w_100.jpg", width: 640 })).toBe(`${ASSETS}/ws1/w_640,f_auto/w_100.jpg`);
    expect(loader({ src: "c_fill/e_grayscale.png", width: 48 })).toBe(
      `${ASSETS}/ws1/w_48,f_auto/c_fill/e_grayscale.png`,
    );
  });

  it("asks for Trove's largest width above it, rounds a fractional width up, and refuses what is no width", () => {
    expect(loader({ src: "a.jpg", width: 9000 })).toBe(`${ASSETS}/ws1/w_8192,f_auto/a.jpg`);
    expect(loader({ src: "a.jpg", width: 8192 })).toBe(`${ASSETS}/ws1/w_8192,f_auto/a.jpg`);
    // Never below 1: a fraction would read as a share of the source (w_0.5).
    expect(loader({ src: "a.jpg", width: 0.5 })).toBe(`${ASSETS}/ws1/w_1,f_auto/a.jpg`);
    expect(loader({ src: "a.jpg", width: 639.2 })).toBe(`${ASSETS}/ws1/w_640,f_auto/a.jpg`);
    for (const width of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => loader({ src: "a.jpg", width })).toThrow(/positive width/);
    }
    for (const quality of [0, 101, 7.5]) {
      expect(() => loader({ src: "a.jpg", width: 64, quality })).toThrow(/quality is an integer 1..100/);
    }
  });

  it("returns the app's own paths as they are, and refuses URLs of other hosts and paths without a workspace", () => {
    expect(loader({ src: "/_next/static/media/logo.png", width: 64 })).toBe("/_next/static/media/logo.png");
    const other = (() => {
      try {
        return loader({ src: "https://elsewhere.example/ws1/a.jpg", width: 64 });
      } catch (error) {
        return error;
      }
    })();
    expect(other).toBeInstanceOf(TroveError);
    expect(other).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(() => createTroveLoader({ assetsUrl: ASSETS })({ src: "a.jpg", width: 64 })).toThrow(/workspace/);
    expect(() => createTroveLoader({ assetsUrl: "cdn.example.com" })).toThrow(/http\(s\) URL/);
  });
});

describe("troveLoader (the default export, configured by env)", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("reads NEXT_PUBLIC_TROVE_ASSETS_URL and NEXT_PUBLIC_TROVE_WORKSPACE on first use", async () => {
    vi.resetModules();
    vi.stubEnv("NEXT_PUBLIC_TROVE_ASSETS_URL", ASSETS);
    vi.stubEnv("NEXT_PUBLIC_TROVE_WORKSPACE", "ws9");
    const fresh = (await import("./next-image.js")).default;
    expect(fresh({ src: "a b.jpg", width: 256, quality: 80 })).toBe(
      `${ASSETS}/ws9/w_256,f_auto,q_80/a%20b.jpg`,
    );
  });

  it("says which variable is missing", async () => {
    vi.resetModules();
    vi.stubEnv("NEXT_PUBLIC_TROVE_ASSETS_URL", "");
    const fresh = (await import("./next-image.js")).default;
    expect(() => fresh({ src: "a.jpg", width: 1 })).toThrow(/NEXT_PUBLIC_TROVE_ASSETS_URL/);
    expect(troveLoader).toBeTypeOf("function");
  });
});
