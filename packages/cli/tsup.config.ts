import { defineConfig } from "tsup";

// A command, not a library: one ESM entry with its shebang kept, no declarations. Dependencies stay
// external (installed from package.json), so @trove/sdk's own build is what runs.
export default defineConfig({
  entry: ["src/bin.ts"],
  format: ["esm"],
  clean: true,
  sourcemap: true,
  target: "node20",
  removeNodeProtocol: false,
});
