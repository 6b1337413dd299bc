import { troveProject } from "../../vitest.shared";

// The helpers' own tests: loopback servers and child processes only, no trove-server.
export default troveProject("test-support");
