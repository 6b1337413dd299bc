import { troveProject } from "../../vitest.shared";

export default troveProject("import-cycles", { testTimeout: 120_000 });
