import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig } from "vite";

export default defineConfig({
  // The server serves the built console under /console (TROVE_CONSOLE_DIR or apps/console/dist).
  base: "/console/",
  plugins: [react()],
  resolve: {
    // `dev-source` resolves @trove/* to their TypeScript sources, so the console builds without
    // building the packages first.
    conditions: ["dev-source", ...defaultClientConditions],
  },
  build: {
    // The console's CSP has no 'unsafe-inline': never inline a module-preload polyfill script.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
  server: { host: "127.0.0.1", port: 5175 },
  preview: { host: "127.0.0.1", port: 4175 },
});
