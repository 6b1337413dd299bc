import { defineConfig } from "tsup";
import { DECLARATIONS } from "../../tsup.declarations";

export default defineConfig([
  {
    // Library entry, dual ESM/CJS with types.
    entry: { index: "src/index.ts" },
    format: ["esm", "cjs"],
    dts: DECLARATIONS,
    clean: true,
    sourcemap: true,
    target: "node20",
    platform: "node",
    // Generated Prisma Client uses import.meta.url; tsup shims it in the CJS build.
    shims: true,
  },
  {
    // The `trove-server` command (ESM only).
    entry: { cli: "src/cli.ts" },
    format: ["esm"],
    dts: false,
    clean: false,
    sourcemap: true,
    target: "node20",
    platform: "node",
  },
]);
