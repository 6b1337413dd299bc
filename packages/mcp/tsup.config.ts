import { defineConfig } from "tsup";
import { DECLARATIONS } from "../../tsup.declarations";

// The command (bin.ts, shebang kept) and the library entries (index.ts, http.ts, with
// declarations), ESM only: the MCP SDK is ESM-first and Node 20.19+ can require ESM anyway.
// Dependencies stay external (installed from package.json), so @trove/sdk's own build runs.
export default defineConfig({
  entry: ["src/bin.ts", "src/index.ts", "src/http.ts"],
  format: ["esm"],
  dts: { ...DECLARATIONS, entry: ["src/index.ts", "src/http.ts"] },
  splitting: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  removeNodeProtocol: false,
});
