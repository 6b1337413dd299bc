import { defineConfig } from "tsup";
import { DECLARATIONS } from "../../tsup.declarations";

export default defineConfig({
  // One build for all entries, split into shared chunks: TroveError & co. exist once per format,
  // so `instanceof` holds across `@trove/sdk`, `@trove/sdk/upload` and `@trove/sdk/node`.
  entry: [
    "src/index.ts",
    "src/upload.ts",
    "src/transform.ts",
    "src/node.ts",
    "src/placeholder.ts",
    // The admin client without Node built-ins (the console's admin view, through its session).
    "src/admin.ts",
    // Server glue (issue #35): the token route and its adapters, and the next/image loader.
    "src/token-route/index.ts",
    "src/token-route/express.ts",
    "src/token-route/fastify.ts",
    "src/next-image.ts",
  ],
  format: ["esm", "cjs"],
  splitting: true,
  dts: DECLARATIONS,
  clean: true,
  sourcemap: true,
  target: "es2022",
  // Keep `node:fs` as written: bundlers and Deno know the prefix means "Node built-in".
  removeNodeProtocol: false,
});
