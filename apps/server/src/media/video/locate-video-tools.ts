/**
 * Finds the ffmpeg and ffprobe a server transcodes video with, in this order for each:
 * 1. TROVE_FFMPEG_PATH / TROVE_FFPROBE_PATH: a binary the operator named. One that is missing,
 *    not executable or does not answer `-version` stops startup with a ConfigError naming the
 *    setting (a typo must not silently fall back to another ffmpeg).
 * 2. `ffmpeg` / `ffprobe` on PATH (a system install, kept up to date by its package manager).
 * 3. The optional npm packages `@ffmpeg-installer/linux-x64` / `@ffprobe-installer/linux-x64`
 *    (a static 4.1 build), so `npm start` transcodes with no system install.
 * null when either tool is found nowhere: the server runs, and video transforms answer 503.
 */
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { ConfigError } from "../../config/config-error.js";
import { runTool } from "./run-tool.js";

export interface VideoTools {
  ffmpeg: string;
  ffprobe: string;
  /** ffmpeg's version as `-version` prints it (`5.1.9-0+deb12u1`, `N-47683-g0e8eb07980-static`). */
  version: string;
  /** Where ffmpeg was found. */
  origin: "setting" | "path" | "package";
}

type Tool = "ffmpeg" | "ffprobe";

const SETTING_OF: Record<Tool, string> = { ffmpeg: "TROVE_FFMPEG_PATH", ffprobe: "TROVE_FFPROBE_PATH" };
const PACKAGE_OF: Record<Tool, string> = {
  ffmpeg: "@ffmpeg-installer/linux-x64",
  ffprobe: "@ffprobe-installer/linux-x64",
};
/** `-version` answers at once; this only guards against a binary that hangs. */
const VERSION_TIMEOUT_MS = 10_000;

interface Located {
  path: string;
  version: string;
  origin: VideoTools["origin"];
}

export async function locateVideoTools(settings: {
  ffmpegPath?: string | undefined;
  ffprobePath?: string | undefined;
}): Promise<VideoTools | null> {
  const ffmpeg = await locate("ffmpeg", settings.ffmpegPath);
  const ffprobe = await locate("ffprobe", settings.ffprobePath);
  if (!ffmpeg || !ffprobe) return null;
  return { ffmpeg: ffmpeg.path, ffprobe: ffprobe.path, version: ffmpeg.version, origin: ffmpeg.origin };
}

async function locate(tool: Tool, setting: string | undefined): Promise<Located | null> {
  if (setting !== undefined) {
    const version = await isExecutable(setting).then((ok) => (ok ? versionOf(setting) : null));
    if (version === null) {
      throw new ConfigError(
        `Invalid environment: ${SETTING_OF[tool]} must name an executable ${tool} that answers -version`,
      );
    }
    return { path: setting, version, origin: "setting" };
  }
  for (const [path, origin] of [
    [await onPath(tool), "path"],
    [packagedBinary(tool), "package"],
  ] as const) {
    if (path === null) continue;
    const version = await versionOf(path);
    if (version !== null) return { path, version, origin };
  }
  return null;
}

async function onPath(tool: Tool): Promise<string | null> {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, tool);
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
}

/** The binary an installer package ships beside its package.json; null when it is not installed. */
export function packagedBinary(tool: Tool): string | null {
  try {
    const require = createRequire(import.meta.url);
    return join(dirname(require.resolve(`${PACKAGE_OF[tool]}/package.json`)), tool);
  } catch {
    return null;
  }
}

async function isExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** The version word of `-version`'s first line (`ffmpeg version 5.1.9 Copyright …`), or null. */
async function versionOf(binary: string): Promise<string | null> {
  try {
    const run = await runTool(binary, ["-hide_banner", "-version"], { timeoutMs: VERSION_TIMEOUT_MS });
    if (run.exitCode !== 0) return null;
    const firstLine = run.stdout.split("\n", 1)[0] ?? "";
    return /^\S+ version (\S+)/.exec(firstLine)?.[1] ?? null;
  } catch {
    return null;
  }
}
