import { troveProject } from "../../vitest.shared";

// The helpers' own tests: loopback servers and child processes only; trove-server is never
// started (its bundle only answers --help).
export default troveProject("test-support");
