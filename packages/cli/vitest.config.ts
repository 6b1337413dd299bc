import { troveProject } from "../../vitest.shared";

// The tests run the real `trove` binary against the real server in a child process (see
// test/support/): slow by nature, so generous timeouts and two files at a time.
export default troveProject("cli", {
  globalSetup: ["./test/support/global-setup.ts"],
  testTimeout: 120_000,
  hookTimeout: 120_000,
  maxWorkers: 2,
  // Process-spawning suites run as a group after the in-process ones (vitest needs a group per
  // worker count).
  sequence: { groupOrder: 1 },
});
