import { troveProject } from "../../vitest.shared";

export default troveProject("registry-check");
