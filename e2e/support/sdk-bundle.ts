/**
 * Bundles a browser entry for a test page with esbuild. The workspace packages (`@trove/sdk/upload`,
 * `@trove/react`) come from their TypeScript source through the `dev-source` export condition (as
 * every e2e suite uses them), resolved through the real export maps, for the browser platform: a
 * Node-only import in the upload entry fails the bundle.
 */
import { build } from "esbuild";

export interface BundleOptions {
  /** As a production app is built: React's production build, JSX, no source map. */
  production?: boolean;
}

export async function bundleForBrowser(entry: string, options: BundleOptions = {}): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    conditions: ["dev-source"],
    ...(options.production
      ? { define: { "process.env.NODE_ENV": '"production"' }, jsx: "automatic" as const }
      : { sourcemap: "inline" as const }),
    logLevel: "silent",
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild produced nothing for ${entry}`);
  return output.text;
}
