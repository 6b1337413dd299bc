import { readFileSync } from "node:fs";
import { configDefaults, defineProject, type UserWorkspaceConfig } from "vitest/config";

/**
 * In .ci/run's reruns (TROVE_RERUN=1: the other Node majors, PostgreSQL), the media-heavy files
 * that `npm test` already ran once are left out (scripts/once-only-tests.json says which and why).
 */
function rerunExcludes(): string[] {
  if (process.env.TROVE_RERUN !== "1") return [];
  const list = new URL("./scripts/once-only-tests.json", import.meta.url);
  return (JSON.parse(readFileSync(list, "utf8")) as { exclude: string[] }).exclude;
}

/** The settings every package's vitest project shares: source-first resolution. */
export function troveProject(name: string, test: UserWorkspaceConfig["test"] = {}) {
  const exclude = [...(test.exclude ?? configDefaults.exclude), ...rerunExcludes()];
  return defineProject({
    resolve: { conditions: ["dev-source"] },
    ssr: { resolve: { conditions: ["dev-source"], externalConditions: ["dev-source"] } },
    test: { name, ...test, exclude },
  });
}
