import { troveProject } from "../../vitest.shared";

export default troveProject("regex-safety", { testTimeout: 120_000 });
