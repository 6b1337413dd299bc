import { troveProject } from "../../vitest.shared";

// Node by default: the entries must import and render on a server. Hook and DOM tests opt into
// happy-dom per file (`@vitest-environment happy-dom`).
export default troveProject("react", { environment: "node" });
