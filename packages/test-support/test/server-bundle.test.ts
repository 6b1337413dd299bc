import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildServerBundle, SERVER_BUNDLE_ENV, serverArgs } from "../src/server-bundle.js";

const SERVER_DIR = fileURLToPath(new URL("../../../apps/server/", import.meta.url));
const run = promisify(execFile);

let teardown: (() => Promise<void>) | undefined;
// In a full run the e2e global setup has built the run's bundle, and the workers inherit it.
beforeEach(() => {
  vi.stubEnv(SERVER_BUNDLE_ENV, undefined);
});
afterEach(async () => {
  await teardown?.();
  teardown = undefined;
  vi.unstubAllEnvs();
});

// Each build bundles the server (about a second alone) and the first test starts Node on it: well
// past vitest's default 5 s on a loaded 2-core machine.
const BUILD_TIMEOUT_MS = 60_000;

describe("the server bundle", () => {
  it(
    "holds the workspace's sources, imports npm packages by absolute path, and runs",
    async () => {
      teardown = await buildServerBundle();
      const bundle = process.env[SERVER_BUNDLE_ENV] as string;
      // Two levels under apps/server: the server finds its package (migrations, console) from there.
      expect(dirname(dirname(dirname(bundle)))).toBe(SERVER_DIR.replace(/\/$/, ""));
      const text = await readFile(bundle, "utf8");
      // @trove/schema is inlined from source, not imported from a dist/ that may be stale.
      expect(text).not.toMatch(/from\s*"@trove\//);
      const npmImports = [...text.matchAll(/^import .* from "([^"]+)";$/gm)]
        .map((match) => match[1] as string)
        .filter((specifier) => !specifier.startsWith("node:"));
      expect(npmImports.length).toBeGreaterThan(10);
      for (const specifier of npmImports) expect(isAbsolute(specifier), specifier).toBe(true);
      expect(npmImports.some((specifier) => specifier.includes("/node_modules/fastify/"))).toBe(true);

      const { stdout } = await run(process.execPath, [...serverArgs(), "--help"]);
      expect(stdout).toMatch(/^Usage: trove-server/);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    "is built once per run, and removed by its teardown",
    async () => {
      teardown = await buildServerBundle();
      const bundle = process.env[SERVER_BUNDLE_ENV] as string;
      const again = await buildServerBundle();
      expect(process.env[SERVER_BUNDLE_ENV]).toBe(bundle);
      await again();
      expect(existsSync(bundle)).toBe(true);

      await teardown();
      teardown = undefined;
      expect(existsSync(dirname(bundle))).toBe(false);
      expect(process.env[SERVER_BUNDLE_ENV]).toBeUndefined();
    },
    BUILD_TIMEOUT_MS,
  );

  it("runs the source through tsx when no bundle was built", () => {
    const args = serverArgs(["--cpu-prof"]);
    expect(args.slice(0, 4)).toEqual(["--conditions=dev-source", "--import", "tsx", "--cpu-prof"]);
    expect(args[4]).toBe(join(SERVER_DIR, "src", "cli.ts"));
    vi.stubEnv(SERVER_BUNDLE_ENV, "/tmp/bundle/cli.mjs");
    expect(serverArgs(["--cpu-prof"])).toEqual(["--cpu-prof", "/tmp/bundle/cli.mjs"]);
  });
});
