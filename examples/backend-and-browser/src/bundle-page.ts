/**
 * Bundles the page's script (src/page/app.ts and the upload-only SDK entry) with esbuild, once,
 * at start. Nothing from the backend is imported by the page, so no secret can be bundled in.
 */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ENTRY = fileURLToPath(new URL("./page/app.ts", import.meta.url));

export async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    // The SDK's TypeScript source inside the Trove repository (no SDK build needed); the published
    // package resolves the same way.
    conditions: ["dev-source"],
    logLevel: "silent",
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error("esbuild produced no page script");
  return output.text;
}
