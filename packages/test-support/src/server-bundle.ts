/**
 * `trove-server` bundled once per test run from its current source, for the suites that start it
 * in child processes (e2e, the CLI tests). Started through tsx, every process spent about 1.4 s
 * more of a 2-core machine resolving and loading some 700 TypeScript modules than the same server
 * loaded from one file, and the suites start it some hundred times.
 *
 * The bundle holds the server's source and the workspace packages it imports (`@trove/*`, through
 * the `dev-source` condition, so nothing is read from a possibly stale dist/). Every npm package
 * stays external, imported by the absolute path esbuild resolved from its importer: native
 * addons, WebAssembly and the files packages find beside themselves load exactly as they do for
 * the published build. The file lies two directories under apps/server, within the three levels
 * the server climbs to find its package (migrations, the console, the checkout).
 *
 * The workers find it through the environment, which they inherit from the global setup;
 * without it (the bench, which has no global setup), `launchServer` runs the source through tsx.
 */
import { randomUUID } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "esbuild";
import { bundleSource } from "./bundle-source.js";

export const SERVER_BUNDLE_ENV = "TROVE_TEST_SERVER_BUNDLE";

const SERVER_DIR = fileURLToPath(new URL("../../../apps/server/", import.meta.url));

/** Bare imports of npm packages stay imports, of the file Node would load for that importer. */
const npmPackagesExternal: Plugin = {
  name: "npm-packages-external",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith("@trove/") || args.pluginData === "external") return undefined;
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      const resolved = await pluginBuild.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: "external",
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.path, external: true };
    });
  },
};

/** Builds the bundle and points the environment at it; resolves the teardown that removes it. */
export async function buildServerBundle(): Promise<() => Promise<void>> {
  // One run of several projects (e2e and the CLI tests) builds one bundle.
  if (process.env[SERVER_BUNDLE_ENV]) return async () => {};
  const dir = join(SERVER_DIR, ".test-build", randomUUID());
  await mkdir(dir, { recursive: true });
  const outfile = join(dir, "cli.mjs");
  await bundleSource(join(SERVER_DIR, "src", "cli.ts"), outfile, { plugins: [npmPackagesExternal] });
  process.env[SERVER_BUNDLE_ENV] = outfile;
  return async () => {
    delete process.env[SERVER_BUNDLE_ENV];
    await rm(dir, { recursive: true, force: true });
  };
}

/**
 * Node's arguments that run `trove-server` (after `nodeArgs`, Node's own flags): the run's bundle
 * when there is one, else the source through tsx, which resolves from the working directory the
 * caller gives (this package has tsx as a dependency).
 */
export function serverArgs(nodeArgs: string[] = []): string[] {
  const bundle = process.env[SERVER_BUNDLE_ENV];
  if (bundle) return [...nodeArgs, bundle];
  return ["--conditions=dev-source", "--import", "tsx", ...nodeArgs, join(SERVER_DIR, "src", "cli.ts")];
}
