import { troveProject } from "../../vitest.shared";

export default troveProject("server", {
  globalSetup: ["./test/global-setup.ts"],
  testTimeout: 30_000,
  hookTimeout: 60_000,
});
