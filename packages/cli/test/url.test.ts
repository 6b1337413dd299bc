// `trove url` against the real server: the delivery URL of a stored file, with an image or a
// video transform (issue #33) checked by the schema before anything is sent, and --streaming.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTree } from "./support/fixtures.js";
import { type TroveHome, trove, troveHome, troveJson } from "./support/trove-cli.js";

let server: ServerProcess;
let home: TroveHome;
let work: string;
let env: Record<string, string>;
let fileNo: string;
/** The file's plain delivery URL, as the server wrote it: `{assets}/{ws}/videos/clip.mp4`. */
let plainUrl: string;
const run = (args: string[]) => trove(args, { env, cwd: work });

/** The plain URL with `segment` put in front of the file's path. */
const withSegment = (segment: string) =>
  plainUrl.replace(/\/videos\/clip\.mp4$/, `/${segment}/videos/clip.mp4`);

beforeAll(async () => {
  server = await startServerProcess();
  home = await troveHome();
  work = await mkdtemp(join(tmpdir(), "trove-cli-url-"));
  env = { ...home.env, TROVE_API_KEY: server.keys.private, TROVE_BASE_URL: server.baseUrl };
  // The URL is built from the file record alone, so any bytes do: no media tool is needed here.
  await writeTree(work, { "clip.mp4": "not really a video\n" });
  const seeded = await run(["upload", "clip.mp4", "--folder", "videos"]);
  expect(seeded.code, seeded.stderr).toBe(0);
  const page = await troveJson<{ files: { file_no: string; url: string }[] }>(["ls"], { env, cwd: work });
  const [file] = page.files;
  fileNo = file?.file_no ?? "";
  plainUrl = file?.url ?? "";
  expect(plainUrl).toMatch(/\/videos\/clip\.mp4$/);
});

afterAll(async () => {
  await server?.stop();
  await home?.cleanup();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("trove url", () => {
  it("prints the plain delivery URL, or one with an image transform", async () => {
    expect(await run(["url", fileNo])).toMatchObject({ code: 0, stdout: `${plainUrl}\n` });
    expect(await run(["url", fileNo, "w_800,f_webp"])).toMatchObject({
      code: 0,
      stdout: `${withSegment("w_800,f_webp")}\n`,
    });
  });

  it.each(["so_5,eo_15,w_400", "thumb_ar", "f_gif,so_5,d_10,w_400", "w_400,h_400,cm_pad_resize,bg_blurred"])(
    "prints the URL with the video transform %s",
    async (transform) => {
      expect(await run(["url", fileNo, transform])).toMatchObject({
        code: 0,
        stdout: `${withSegment(transform)}\n`,
      });
    },
  );

  it("prints an HLS ladder's playlist URL with --streaming", async () => {
    const result = await run(["url", fileNo, "--streaming", "240,360,720"]);
    expect(result).toMatchObject({ code: 0, stdout: `${withSegment("st_240_360_720")}/ar-master.m3u8\n` });
  });

  it.each([
    ["so_5,eo_2", "eo_2: end offset must be after the start offset (5 s)"],
    ["eo_5,d_2", "d_2: use eo_ or d_, not both"],
    ["so_5,e_grayscale", "e_grayscale: e_ does not apply to video"],
    ["q_200", "q_200: quality must be 1..100"],
  ])("refuses the transform %s as a usage error naming the directive", async (transform, message) => {
    const result = await run(["url", fileNo, transform]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
  });

  it("refuses bad heights, and a transform with --streaming", async () => {
    const descending = await run(["url", fileNo, "--streaming", "360,240"]);
    expect(descending.code).toBe(2);
    expect(descending.stderr).toContain("streaming heights must be ascending and unique");
    const both = await run(["url", fileNo, "w_400", "--streaming", "240"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("give a transform or --streaming, not both.");
  });

  it("answers an unknown file with the 404 sentence", async () => {
    const result = await run(["url", "999999", "thumb_ar"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/file 999999/);
  });
});
