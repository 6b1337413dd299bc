import { troveProject } from "../../vitest.shared";

export default troveProject("doc-paths", { testTimeout: 120_000 });
