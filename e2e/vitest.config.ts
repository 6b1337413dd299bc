import { troveProject } from "../vitest.shared";

export default troveProject("e2e", {
  globalSetup: ["./support/global-setup.ts"],
  testTimeout: 180_000,
  hookTimeout: 120_000,
  // Each file starts its own server process; two at a time is what 2 cores carry.
  maxWorkers: 2,
});
