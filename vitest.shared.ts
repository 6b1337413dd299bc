import { defineProject, type UserWorkspaceConfig } from "vitest/config";

/** The settings every package's vitest project shares: source-first resolution. */
export function troveProject(name: string, test: UserWorkspaceConfig["test"] = {}) {
  return defineProject({
    resolve: { conditions: ["dev-source"] },
    ssr: { resolve: { conditions: ["dev-source"], externalConditions: ["dev-source"] } },
    test: { name, ...test },
  });
}
