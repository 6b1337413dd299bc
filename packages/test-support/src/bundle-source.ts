import { type BuildOptions, build } from "esbuild";

/**
 * Bundles a program from the workspace's current source for the tests that start it as a child
 * process (the `trove` CLI, `trove-server`): one ES module for Node 20, the workspace packages
 * read through their `dev-source` condition, so a test never runs a stale dist/. `options` adds
 * to or overrides those defaults.
 */
export async function bundleSource(
  entry: string,
  outfile: string,
  options: BuildOptions = {},
): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["dev-source"],
    logLevel: "warning",
    ...options,
  });
}
