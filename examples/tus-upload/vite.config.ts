import { defaultClientConditions, defineConfig } from "vite";

export default defineConfig({
  resolve: {
    // `dev-source` makes @trove/sdk resolve to its TypeScript source, so inside the Trove repository
    // the page runs without building the SDK first. In your own project you can drop it (and the
    // @trove/sdk dependency with it, if you drop the key check in src/config.ts).
    conditions: ["dev-source", ...defaultClientConditions],
  },
  // Loopback by default: the page is for development; `--host` exposes it.
  server: { host: "127.0.0.1", port: 5175 },
  preview: { host: "127.0.0.1", port: 4175 },
});
