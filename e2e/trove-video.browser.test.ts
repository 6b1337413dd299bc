// <TroveVideo> in real Chromium: a 4 s, two-rendition HLS stream (made with ffmpeg at test time)
// served at the URL shape the server will use ({assets}/{ws}/st_240_360/{path}/ar-master.m3u8,
// poster {assets}/{ws}/thumb_ar/{path}) from a loopback static server, played through hls.js
// where the browser lacks native HLS, and by the browser itself where it has it (recent
// Chromium does: Debian's 156 here). Runs with TROVE_BROWSER_TESTS=1.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { useChromium } from "@trove/test-support/browser/browser-per-file";
import {
  type StaticFile,
  type StaticServer,
  startStaticServer,
} from "@trove/test-support/browser/static-server";
import { build } from "esbuild";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VideoPageConfig } from "./trove-video-page.js";

const PAGE_ENTRY = fileURLToPath(new URL("./trove-video-page.ts", import.meta.url));
const HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>TroveVideo e2e</title><link rel="icon" href="data:,">
<script type="module" src="/page.js"></script></head>
<body><div id="root"></div></body></html>`;
const HLS_TYPE = "application/vnd.apple.mpegurl";
const MEDIA_TYPES: Record<string, string> = { ".m3u8": HLS_TYPE, ".ts": "video/mp2t" };
const FILE = "ws1/clips/surf.mp4";
const LADDER = `/assets/ws1/st_240_360/clips/surf.mp4`;
const POSTER = "/assets/ws1/thumb_ar/clips/surf.mp4";

/**
 * Two renditions (240p, 360p) of 4 s with audio, in 1 s MPEG-TS segments, under the master
 * playlist the server will name ar-master.m3u8; and a WebP still as the thumb_ar poster.
 */
async function encodeStream(dir: string): Promise<void> {
  const ffmpeg = process.env.TROVE_FFMPEG_PATH ?? "ffmpeg";
  const source = ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25"];
  await promisify(execFile)(
    ffmpeg,
    [
      ...[
        "-hide_banner",
        "-loglevel",
        "error",
        ...source,
        "-f",
        "lavfi",
        "-i",
        "sine=frequency=440",
        "-t",
        "4",
      ],
      ...["-filter_complex", "[0:v]split=2[a][b];[a]scale=-2:240[v0];[b]scale=-2:360[v1]"],
      ...["-map", "[v0]", "-map", "[v1]", "-map", "1:a", "-map", "1:a"],
      ...["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "25", "-sc_threshold", "0"],
      ...["-c:a", "aac", "-b:a", "64k", "-ac", "2"],
      ...["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", "-hls_segment_filename", "r%v_%d.ts"],
      ...["-master_pl_name", "ar-master.m3u8", "-var_stream_map", "v:0,a:0 v:1,a:1", "r%v.m3u8"],
    ],
    { cwd: dir },
  );
  await promisify(execFile)(
    ffmpeg,
    ["-hide_banner", "-loglevel", "error", ...source, "-frames:v", "1", "-c:v", "libwebp", "poster.webp"],
    { cwd: dir },
  );
}

/**
 * The page as an app's bundler would split it: hls.js lands in its own chunk at its dynamic
 * import, so the test can see whether the browser downloaded it. Served as `/{file name}`.
 */
async function bundlePage(): Promise<Record<string, StaticFile>> {
  const result = await build({
    entryPoints: { page: PAGE_ENTRY },
    bundle: true,
    splitting: true,
    format: "esm",
    outdir: "/bundle",
    write: false,
    platform: "browser",
    target: "chrome120",
    conditions: ["dev-source"],
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  return Object.fromEntries(
    result.outputFiles.map((file) => [
      `/${basename(file.path)}`,
      { type: "text/javascript; charset=utf-8", body: file.contents },
    ]),
  );
}

describe("<TroveVideo> plays an HLS ladder in Chromium", () => {
  let dir: string;
  let site: StaticServer;
  let bundle: Record<string, StaticFile>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trove-video-e2e-"));
    [bundle] = await Promise.all([bundlePage(), encodeStream(dir)]);
    const files: Record<string, StaticFile> = {
      "/": { type: "text/html; charset=utf-8", body: HTML },
      ...bundle,
      [POSTER]: { type: "image/webp", body: await readFile(join(dir, "poster.webp")) },
    };
    for (const name of await readdir(dir)) {
      const type = MEDIA_TYPES[extname(name)];
      if (type) files[`${LADDER}/${name}`] = { type, body: await readFile(join(dir, name)) };
    }
    site = await startStaticServer({ files });
  });

  afterAll(async () => {
    await site?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const chrome = useChromium({
    startAt: () => `${site.url}/`,
    afterEachTest: (tab) => expect(tab.pageErrors).toEqual([]),
  });

  /** Every path the page asks for, with the Content-Type it was answered with (or its failing status). */
  function recordResponses(page: Page): Map<string, string> {
    const seen = new Map<string, string>();
    page.on("response", (response) => {
      const path = new URL(response.url()).pathname;
      seen.set(
        path,
        response.ok() ? (response.headers()["content-type"] ?? "") : `status ${response.status()}`,
      );
    });
    return seen;
  }
  const failures = (seen: Map<string, string>) => [...seen].filter(([, type]) => type.startsWith("status"));

  async function mountAndPlay(page: Page) {
    const config: VideoPageConfig = { assetsUrl: `${site.url}/assets`, src: FILE, streaming: [240, 360] };
    await page.evaluate((c) => window.troveVideo.mount(c), config);
    // Autoplay (muted) carries it past 1 s; the wait ends as soon as it does.
    await page.waitForFunction(
      () => {
        const video = document.querySelector("video");
        return video !== null && video.currentTime > 1 && video.videoWidth > 0;
      },
      undefined,
      { timeout: 60_000 },
    );
    return page.locator("video").evaluate((video: HTMLVideoElement) => ({
      currentTime: video.currentTime,
      videoWidth: video.videoWidth,
      src: video.src,
      poster: video.poster,
      paused: video.paused,
    }));
  }

  const hlsChunks = (seen: Map<string, string>) =>
    [...seen.keys()].filter((path) => /^\/hls(\.light)?-[A-Za-z0-9]+\.js$/.test(path));

  it("without native HLS: hls.js is loaded on demand and plays the ladder over MediaSource", async () => {
    const page = chrome.tab.page;
    // Recent Chromium plays HLS itself; answer as Firefox and older Chromium do, so the
    // component takes the hls.js path (it decides by this call alone, when it mounts).
    await page.evaluate((type) => {
      const canPlayType = HTMLMediaElement.prototype.canPlayType;
      HTMLMediaElement.prototype.canPlayType = function (this: HTMLMediaElement, asked: string) {
        return asked === type ? "" : canPlayType.call(this, asked);
      };
    }, HLS_TYPE);
    const seen = recordResponses(page);
    const before = hlsChunks(seen);
    const played = await mountAndPlay(page);

    expect(failures(seen)).toEqual([]);
    expect(before).toEqual([]);
    expect(played.currentTime).toBeGreaterThan(1);
    expect(played.videoWidth).toBeGreaterThan(0);
    expect(played.paused).toBe(false);
    // hls.js feeds the element a MediaSource; its chunk came only after mount.
    expect(played.src).toMatch(/^blob:/);
    expect(hlsChunks(seen)).toHaveLength(1);
    expect(played.poster).toBe(`${site.url}${POSTER}`);
    expect(seen.get(POSTER)).toBe("image/webp");
    expect(seen.get(`${LADDER}/ar-master.m3u8`)).toBe(HLS_TYPE);
    expect([...seen.keys()].some((path) => /^\/assets\/.*\/r[01]\.m3u8$/.test(path))).toBe(true);
    expect([...seen.entries()].some(([path, type]) => path.endsWith(".ts") && type === "video/mp2t")).toBe(
      true,
    );
    // The MP4 fallback was never needed (and is not served here).
    expect(seen.has("/assets/ws1/clips/surf.mp4")).toBe(false);
    expect(chrome.tab.foreignRequests).toEqual([]);
  });

  it("with native HLS where the browser reports it: plays the playlist itself and never downloads hls.js", async () => {
    const page = chrome.tab.page;
    const native = await page.evaluate((type) => document.createElement("video").canPlayType(type), HLS_TYPE);
    const seen = recordResponses(page);
    const played = await mountAndPlay(page);

    expect(failures(seen)).toEqual([]);
    expect(played.currentTime).toBeGreaterThan(1);
    expect(played.videoWidth).toBeGreaterThan(0);
    expect(seen.get(`${LADDER}/ar-master.m3u8`)).toBe(HLS_TYPE);
    expect(seen.has(POSTER)).toBe(true);
    // The component's rule, against this browser's own answer.
    if (native === "") {
      expect(played.src).toMatch(/^blob:/);
      expect(hlsChunks(seen)).toHaveLength(1);
    } else {
      expect(played.src).toBe(`${site.url}${LADDER}/ar-master.m3u8`);
      expect(hlsChunks(seen)).toEqual([]);
    }
    expect(chrome.tab.foreignRequests).toEqual([]);
  });
});
