import { troveProject } from "../../vitest.shared";

// The tests drive the real `trove-mcp` (stdio child process, or its HTTP handler) against the
// real server in a child process: slow by nature, so generous timeouts and two files at a time.
export default troveProject("mcp", {
  globalSetup: ["@trove/test-support/global-setup"],
  testTimeout: 120_000,
  hookTimeout: 120_000,
  maxWorkers: 2,
  // Process-spawning suites run as a group after the in-process ones (vitest needs a group per
  // worker count).
  sequence: { groupOrder: 1 },
});
