// examples/react-upload plays a Trove-served HLS stream in real Chromium (issue #33): a video is
// uploaded through the starter's uploader to a real trove-server with workers and ffmpeg; the
// gallery's <TroveVideo streaming={[240, 360]}> asks for the ladder, which the server renders
// through the asynchronous lifecycle (202 until ready) while the original MP4 stands in; once
// ready the player switches to the stream (natively in this Chromium, or hls.js) and plays it,
// every playlist and segment from the delivery host. Runs with TROVE_BROWSER_TESTS=1.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { useChromium } from "@trove/test-support/browser/browser-per-file";
import { startExampleSite } from "@trove/test-support/browser/example-site";
import type { StaticServer } from "@trove/test-support/browser/static-server";
import { useServerProcess } from "@trove/test-support/server-per-file";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const EXAMPLE = fileURLToPath(new URL("../examples/react-upload", import.meta.url));

describe("examples/react-upload streams an uploaded video in Chromium", () => {
  const server = useServerProcess();
  let site: StaticServer;
  let dir: string;
  let clip: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trove-streaming-e2e-"));
    await promisify(execFile)("ffmpeg", [
      ...["-loglevel", "error", "-nostdin", "-y"],
      ...["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-f", "lavfi", "-i", "sine=frequency=440"],
      ...["-t", "6", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac"],
      join(dir, "surf.mp4"),
    ]);
    clip = await readFile(join(dir, "surf.mp4"));
    site = await startExampleSite(EXAMPLE, server);
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const chrome = useChromium({
    startAt: () => `${site.url}/`,
    afterEachTest: (tab) => expect(tab.pageErrors).toEqual([]),
  });

  it("renders the ladder on demand and plays it from the delivery host", async () => {
    const { page } = chrome.tab;
    const answers: Array<{ path: string; status: number; type: string }> = [];
    page.on("response", (response) => {
      const url = new URL(response.url());
      if (url.origin === new URL(server.assetsUrl).origin) {
        answers.push({
          path: url.pathname,
          status: response.status(),
          type: response.headers()["content-type"] ?? "",
        });
      }
    });
    await page
      .locator("main > .trove-uploader .trove-uploader__zone input")
      .setInputFiles({ name: "surf.mp4", mimeType: "video/mp4", buffer: clip });
    const video = page.getByRole("region", { name: "Videos" }).locator("video");
    await video.waitFor({ timeout: 60_000 });
    // The stream replaces the MP4 once the server has rendered it: natively, the master's URL;
    // through hls.js, a MediaSource blob.
    await page.waitForFunction(
      () => {
        const element = document.querySelector("section video") as HTMLVideoElement | null;
        return element !== null && /ar-master\.m3u8$|^blob:/.test(element.currentSrc || element.src);
      },
      undefined,
      { timeout: 120_000 },
    );
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    await page.waitForFunction(
      () => {
        const element = document.querySelector("section video") as HTMLVideoElement | null;
        return element !== null && element.currentTime > 1 && element.videoWidth > 0;
      },
      undefined,
      { timeout: 60_000 },
    );
    const master = answers.filter((answer) =>
      answer.path.endsWith("/st_240_360/react-example/surf.mp4/ar-master.m3u8"),
    );
    // Asked while it rendered (202), then served.
    expect(master.map((answer) => answer.status)).toContain(202);
    expect(master.find((answer) => answer.status === 200)?.type).toBe("application/vnd.apple.mpegurl");
    const segments = answers.filter((answer) => answer.path.endsWith(".m4s"));
    expect(segments.length).toBeGreaterThan(0);
    expect(segments.every((answer) => answer.status === 200 || answer.status === 206)).toBe(true);
  }, 240_000);
});
