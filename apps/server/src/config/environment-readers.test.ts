// docs/CONVENTIONS.md says code below config.ts reads ServerConfig, never process.env, and that
// only cli.ts hands the environment to loadConfig. This keeps that true: a new `process.env` in
// the server's shipped code (tests and the generated Prisma client apart) fails here, so a
// setting cannot slip past the declaration (src/config/settings.ts) again.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcRoot = fileURLToPath(new URL("..", import.meta.url));

/** The only files allowed to name process.env, and why. */
const ALLOWED = new Map([
  ["cli.ts", "hands the environment to loadConfig"],
  ["config.ts", "loadConfig's default argument, the one read"],
  ["media/layers/bundled-fonts.ts", "sets FONTCONFIG_FILE for libvips' fontconfig; reads nothing"],
  ["media/video/locate-video-tools.ts", "looks for ffmpeg on PATH, as a shell would; not a setting"],
]);

function shippedSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : shippedSources(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** `process.env` in code, not in a comment line (doc comments may name it). */
const readsEnvironment = (text: string) =>
  text.split("\n").some((line) => /process\.env\b/.test(line) && !/^\s*(\*|\/\/|\/\*)/.test(line));

describe("the environment", () => {
  it("is read only by loadConfig, through cli.ts", () => {
    const readers = shippedSources(srcRoot)
      .filter((file) => readsEnvironment(readFileSync(file, "utf8")))
      .map((file) => relative(srcRoot, file).split(sep).join("/"));
    expect(readers.length, "the walk found no reader at all: is srcRoot right?").toBeGreaterThan(0);
    expect(
      readers.filter((file) => !ALLOWED.has(file)),
      "declare the setting in src/config/settings.ts and read it from ServerConfig instead",
    ).toEqual([]);
  });
});
