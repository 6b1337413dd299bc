import { troveProject } from "../../vitest.shared";

export default troveProject("node-support");
