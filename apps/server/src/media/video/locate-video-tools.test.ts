import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../config/config-error.js";
import { locateVideoTools, packagedBinary } from "./locate-video-tools.js";

let dir: string;
const savedPath = process.env.PATH;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-video-tools-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => {
  process.env.PATH = savedPath;
});

describe("locateVideoTools", () => {
  it("finds ffmpeg and ffprobe on PATH, with ffmpeg's version", async () => {
    const tools = await locateVideoTools({});
    expect(tools).toMatchObject({
      ffmpeg: expect.stringMatching(/\/ffmpeg$/),
      ffprobe: expect.stringMatching(/\/ffprobe$/),
      version: expect.stringMatching(/^\d+\.\d+/),
      origin: "path",
    });
  });

  it("falls back to the npm package when PATH has none", async () => {
    process.env.PATH = dir;
    const tools = await locateVideoTools({});
    expect(tools).toEqual({
      ffmpeg: packagedBinary("ffmpeg"),
      ffprobe: packagedBinary("ffprobe"),
      version: expect.stringMatching(/\S/),
      origin: "package",
    });
  });

  it("uses the binaries the settings name", async () => {
    const ffmpeg = packagedBinary("ffmpeg") as string;
    const tools = await locateVideoTools({ ffmpegPath: ffmpeg, ffprobePath: "/usr/bin/ffprobe" });
    expect(tools).toMatchObject({ ffmpeg, ffprobe: "/usr/bin/ffprobe", origin: "setting" });
  });

  it("stops startup naming the setting when it names a missing binary", async () => {
    const missing = join(dir, "no-such-ffmpeg");
    const error = await locateVideoTools({ ffmpegPath: missing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain("TROVE_FFMPEG_PATH");
    await expect(locateVideoTools({ ffprobePath: missing })).rejects.toThrow(/TROVE_FFPROBE_PATH/);
  });

  it("refuses a named file that is executable but not an ffmpeg", async () => {
    const fake = join(dir, "fake-ffmpeg");
    await writeFile(fake, "#!/bin/sh\nexit 1\n");
    await chmod(fake, 0o755);
    await expect(locateVideoTools({ ffmpegPath: fake })).rejects.toThrow(/TROVE_FFMPEG_PATH/);
  });
});
