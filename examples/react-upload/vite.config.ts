import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  resolve: {
    // `dev-source` makes @trove/react and @trove/sdk resolve to their TypeScript sources, so inside
    // the Trove repository the page runs without building them first. In your own project drop it:
    // the published packages' dist is the same code.
    conditions: ["dev-source", ...defaultClientConditions],
  },
  // Loopback by default: the page is for development; `--host` exposes it.
  server: { host: "127.0.0.1", port: 5174 },
  preview: { host: "127.0.0.1", port: 4174 },
});
