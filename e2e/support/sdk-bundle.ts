/**
 * Bundles a browser entry that imports `@trove/sdk/upload` with esbuild, for a test page. The SDK
 * comes from its TypeScript source through the package's `dev-source` export condition (as every
 * e2e suite uses it), resolved through the real export map, for the browser platform: a Node-only
 * import in the upload entry fails the bundle.
 */
import { build } from "esbuild";

export async function bundleForBrowser(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    conditions: ["dev-source"],
    sourcemap: "inline",
    logLevel: "silent",
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild produced nothing for ${entry}`);
  return output.text;
}
