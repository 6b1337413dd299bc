import { readdir, readFile, writeFile } from "node:fs/promises";
import { defineConfig } from "tsup";
import { DECLARATIONS } from "../../tsup.declarations";

const USE_CLIENT = '"use client";';

export default defineConfig({
  // `index` has everything; `image` only <TroveImage> and its URL helpers, for pages that show
  // files but never upload (no upload engine in their bundle); `video` likewise <TroveVideo>.
  // Shared chunks keep one React context for all, so a TroveProvider from any entry reaches
  // components of the others.
  entry: ["src/index.ts", "src/image.ts", "src/video.ts"],
  format: ["esm", "cjs"],
  splitting: true,
  dts: DECLARATIONS,
  clean: true,
  sourcemap: true,
  target: "es2022",
  // hls.js stays an import of the user's bundle, which splits it off at its dynamic import.
  external: ["react", "react/jsx-runtime", "@trove/sdk", "hls.js"],
  // esbuild drops module-level directives when it bundles, so the React Server Components marker
  // is put back on every output file: the components use hooks and state and must run on the client.
  banner: { js: USE_CLIENT },
  // tsup's CommonJS pass writes `"use strict"` and the `__esModule` marker above the banner, where
  // the string is no longer a directive: move it back to the first line of every .cjs file.
  async onSuccess() {
    for (const name of await readdir("dist")) {
      if (!name.endsWith(".cjs")) continue;
      const path = `dist/${name}`;
      const code = await readFile(path, "utf8");
      await writeFile(path, `${USE_CLIENT}\n${code.replace(USE_CLIENT, "")}`);
    }
  },
});
