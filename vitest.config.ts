import { defineConfig } from "vitest/config";

// One root config; every package is a project with its own vitest.config.ts.
// The `dev-source` condition lets tests import workspace packages from src/ without a build.
export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "e2e"],
    reporters: ["default"],
  },
});
