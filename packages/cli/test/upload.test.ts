// `trove upload` against the real server, through a counting proxy: files and directories,
// per-file failures, and resuming a multipart upload after a crash or Ctrl-C without sending the
// stored parts again.
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type CountingProxy, startCountingProxy } from "./support/counting-proxy.js";
import { PIXEL_PNG, writeTree } from "./support/fixtures.js";
import { spawnTrove, type TroveHome, trove, troveHome, troveJson, watch } from "./support/trove-cli.js";
import { waitFor } from "./support/wait-for.js";

const MIB = 1024 * 1024;

interface FileRow {
  file_no: string;
  name: string;
  path: string;
  url: string;
  file_size: number;
  width: number | null;
}

let proxy: CountingProxy;
let server: ServerProcess;
let home: TroveHome;
let work: string;
let env: Record<string, string>;
const run = (args: string[]) => trove(args, { env, cwd: work });
const allFiles = async () =>
  (await troveJson<{ files: FileRow[] }>(["ls", "--all"], { env, cwd: work })).files;
const sessionsFile = () => join(home.stateDir, "uploads.json");

async function storedSessions(): Promise<{ completed: number[]; part_size: number }[]> {
  try {
    return Object.values(JSON.parse(await readFile(sessionsFile(), "utf8")) as Record<string, never>);
  } catch {
    return [];
  }
}

async function sha256(bytes: Uint8Array): Promise<string> {
  return createHash("sha256").update(bytes).digest("hex");
}

async function downloaded(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return sha256(new Uint8Array(await response.arrayBuffer()));
}

beforeAll(async () => {
  // Part URLs point at the proxy (TROVE_GATEWAY_URL), and so does the CLI: every request is seen.
  proxy = await startCountingProxy();
  server = await startServerProcess({ TROVE_GATEWAY_URL: proxy.url });
  proxy.target = server.baseUrl;
  home = await troveHome();
  work = await mkdtemp(join(tmpdir(), "trove-cli-upload-"));
  env = { ...home.env, TROVE_API_KEY: server.keys.private, TROVE_BASE_URL: proxy.url };
});

afterAll(async () => {
  await server?.stop();
  await proxy?.close();
  await home?.cleanup();
  if (work) await rm(work, { recursive: true, force: true });
});

beforeEach(() => {
  proxy.holdPartsAfter = undefined;
  proxy.requests.length = 0;
  proxy.partsReceived.length = 0;
  proxy.partsStored.length = 0;
});

describe("trove upload", () => {
  it("uploads files and a directory, keeping relative paths as subfolders", async () => {
    await writeTree(work, {
      "a.txt": "alpha\n",
      "pixel.png": PIXEL_PNG,
      "album/x.txt": "x",
      "album/sub/y.txt": "yy",
      "album/sub/deeper/z.txt": "zzz",
    });
    const result = await run([
      "upload",
      "a.txt",
      "pixel.png",
      "album",
      "--folder",
      "site",
      "--tags",
      "t1,t2",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.trim().split("\n");
    expect(lines).toContain("uploading a.txt (6 B)");
    expect(lines).toContain("uploading album/sub/deeper/z.txt (3 B)");
    expect(lines.filter((line) => line.startsWith("uploaded "))).toHaveLength(5);
    expect(lines.find((line) => line.startsWith("uploaded a.txt"))).toMatch(
      /^uploaded a\.txt -> \d+ http:\/\/127\.0\.0\.1:\d+\/assets\/\w+\/site\/a\.txt$/,
    );
    expect(lines.at(-1)).toMatch(/^5 uploaded, 0 failed, \d+ B in \d+\.\d s\.$/);

    const files = await allFiles();
    expect(files.map((file) => file.path).sort()).toEqual([
      "site/a.txt",
      "site/album/sub/deeper/z.txt",
      "site/album/sub/y.txt",
      "site/album/x.txt",
      "site/pixel.png",
    ]);
    const a = files.find((file) => file.path === "site/a.txt")!;
    expect(await (await fetch(a.url)).text()).toBe("alpha\n");
  });

  it("--json prints what was uploaded and a summary, and nothing else", async () => {
    await writeTree(work, { "j1.txt": "one", "j2.txt": "two!" });
    const result = await run(["upload", "j1.txt", "j2.txt", "--json", "--concurrency", "1"]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      uploaded: { local_path: string; file_no: string; url: string; size: number; path: string }[];
      failed: unknown[];
      summary: { uploaded: number; failed: number; unfinished: number; bytes: number; seconds: number };
    };
    expect(report.uploaded.map(({ local_path, size, path }) => ({ local_path, size, path }))).toEqual([
      { local_path: join(work, "j1.txt"), size: 3, path: "j1.txt" },
      { local_path: join(work, "j2.txt"), size: 4, path: "j2.txt" },
    ]);
    expect(report.failed).toEqual([]);
    expect(report.summary).toMatchObject({ uploaded: 2, failed: 0, unfinished: 0, bytes: 7 });
  });

  it("--expires-in makes the files temporary; a value out of bounds is a usage error", async () => {
    await writeTree(work, { "temp.txt": "gone soon" });
    const result = await run([
      "upload",
      "temp.txt",
      "--folder",
      "temporary",
      "--expires-in",
      "600",
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const [file] = (JSON.parse(result.stdout) as { uploaded: { created_at: string; expires_at: string }[] })
      .uploaded;
    expect((Date.parse(String(file?.expires_at)) - Date.parse(String(file?.created_at))) / 1000).toBeCloseTo(
      600,
      0,
    );

    const tooShort = await run(["upload", "temp.txt", "--expires-in", "59"]);
    expect(tooShort.code).toBe(2);
    expect(tooShort.stderr).toContain("expected an integer from 60 to 31536000");
  });

  it("a file that does not exist fails on its own: the others are uploaded, exit code 1", async () => {
    await writeTree(work, { "present.txt": "here" });
    const result = await run(["upload", "present.txt", "missing.jpg"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("Error: missing.jpg does not exist.\n");
    expect(result.stdout).toMatch(/^uploaded present\.txt -> \d+ /m);
    expect(result.stdout).toMatch(/^1 uploaded, 1 failed, 4 B in \d+\.\d s\.$/m);
  });

  it("a refusal by the server is one sentence with its status and code; exit code 1", async () => {
    await writeTree(work, { "plain.txt": "not an image" });
    const result = await run(["upload", "plain.txt", "--transform", "w_100", "--json"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout) as {
      failed: { local_path: string; error: Record<string, unknown> }[];
    };
    expect(report.failed).toEqual([
      {
        local_path: join(work, "plain.txt"),
        error: expect.objectContaining({ status: 400, code: "UNSUPPORTED_MEDIA_TYPE" }),
      },
    ]);

    const plain = await run(["upload", "plain.txt", "--transform", "w_100"]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(
      /^Error: could not upload plain\.txt: .+ \(400 UNSUPPORTED_MEDIA_TYPE\)\.\n$/,
    );
    expect(plain.stdout).toMatch(/^0 uploaded, 1 failed, 0 B in /m);
  });

  it("a transformation is applied to an image when it is stored", async () => {
    // Enlarging a 1 px image needs fl_upscale: without it no mode enlarges (docs/TRANSFORMS.md).
    await writeTree(work, { "grow/pixel.png": PIXEL_PNG });
    const result = await run([
      "upload",
      "grow/pixel.png",
      "--folder",
      "transformed",
      "--transform",
      "w_4,h_4,c_scale,fl_upscale",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const file = (await allFiles()).find((row) => row.path === "transformed/pixel.png");
    expect(file?.width).toBe(4);
  });

  it("an interrupted multipart upload (SIGKILL) resumes without sending its stored parts again", async () => {
    const bytes = randomBytes(30 * MIB);
    await writeFile(join(work, "big.bin"), bytes);

    // First run: part 1 goes through, part 2 is held, and the process is killed while waiting.
    proxy.holdPartsAfter = 1;
    const first = spawnTrove(["upload", "big.bin", "--concurrency", "1", "--folder", "videos"], {
      env,
      cwd: work,
    });
    const firstRun = watch(first);
    await waitFor(
      async () => (await storedSessions()).some((s) => s.completed.includes(0)),
      "part 1 recorded",
    );
    await waitFor(() => proxy.partsReceived.includes(2), "part 2 sent");
    first.kill("SIGKILL");
    expect((await firstRun.done).signal).toBe("SIGKILL");
    expect(proxy.partsStored).toEqual([1]);
    const [session] = await storedSessions();
    expect(session).toMatchObject({ completed: [0], part_size: 5 * MIB });

    // Second run: continues the session, sends parts 2 to 6 only, completes.
    proxy.holdPartsAfter = undefined;
    const second = await run(["upload", "big.bin", "--concurrency", "1", "--folder", "videos"]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("resuming big.bin: 5.0 MiB of 30.0 MiB already uploaded\n");
    expect(second.stdout).toMatch(/^1 uploaded, 0 failed, 30\.0 MiB in /m);

    expect(proxy.partsReceived.filter((part) => part === 1)).toEqual([1]);
    expect([...proxy.partsStored].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(proxy.requests.filter((r) => r === "POST /api/v1/multipart/start")).toHaveLength(1);
    expect(proxy.requests.filter((r) => r === "POST /api/v1/multipart/complete")).toHaveLength(1);
    expect(await storedSessions()).toEqual([]);

    const file = (await allFiles()).find((row) => row.path === "videos/big.bin")!;
    expect(file.file_size).toBe(30 * MIB);
    expect(await downloaded(file.url)).toBe(await sha256(bytes));
  });

  it("Ctrl-C stops an upload with exit code 130, says how to finish, and the rerun finishes", async () => {
    const bytes = randomBytes(12 * MIB);
    await writeFile(join(work, "clip.bin"), bytes);

    proxy.holdPartsAfter = 1;
    const first = spawnTrove(["upload", "clip.bin", "--concurrency", "1"], { env, cwd: work });
    const firstRun = watch(first);
    await waitFor(() => proxy.partsReceived.includes(2), "part 2 sent");
    first.kill("SIGINT");
    const interrupted = await firstRun.done;
    expect(interrupted.code).toBe(130);
    expect(interrupted.stdout).toContain("clip.bin: 5.0 MiB of 12.0 MiB (41%)\n");
    expect(interrupted.stdout).toMatch(/^0 uploaded, 0 failed, 1 unfinished, 0 B in /m);
    expect(interrupted.stderr).toBe(
      `Interrupted. Run the same command again to finish: large files continue where they stopped (sessions in ${sessionsFile()}).\n`,
    );

    proxy.holdPartsAfter = undefined;
    const second = await run(["upload", "clip.bin", "--concurrency", "1"]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("resuming clip.bin: 5.0 MiB of 12.0 MiB already uploaded\n");
    expect(proxy.partsReceived.filter((part) => part === 1)).toEqual([1]);
    expect([...proxy.partsStored].sort()).toEqual([1, 2, 3]);
    const file = (await allFiles()).find((row) => row.path === "clip.bin")!;
    expect(await downloaded(file.url)).toBe(await sha256(bytes));
  });

  it("--transform on a file sent in parts is refused for that file before anything is sent", async () => {
    await writeFile(join(work, "large.png"), randomBytes(9 * MIB));
    const result = await run(["upload", "large.png", "--transform", "w_10"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "Error: could not upload large.png: --transform applies only to files up to 8.0 MiB (sent in one request); this one is 9.0 MiB.\n",
    );
    expect(proxy.requests).toEqual([]);
  });
});
