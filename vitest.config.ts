import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// One root config; every package is a project with its own vitest.config.ts.
// The `dev-source` condition lets tests import workspace packages from src/ without a build.
// CI sets TROVE_VITEST_JSON to collect a machine-readable report beside the console summary.
const jsonReport = process.env.TROVE_VITEST_JSON;

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "tools/*", "e2e"],
    reporters: jsonReport ? ["default", ["json", { outputFile: jsonReport }]] : ["default"],
    // Vitest's default is one worker per core but one, which is a single worker on a 2-core
    // machine: the server's files then run one after another while a core idles whenever a test
    // waits on a socket, a child process or the disk. Never fewer than two.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
