import { readFileSync } from "node:fs";
import { configDefaults, defineProject, type UserWorkspaceConfig } from "vitest/config";

/**
 * The media-heavy test files (scripts/media-suites.json says which and why) run in a stage of
 * their own: `npm test` and every other run leave them out, `TROVE_MEDIA_TESTS=1` runs them and
 * nothing else. A file is in exactly one of the two, so no run reports one as skipped.
 */
const MEDIA_SUITES = (
  JSON.parse(readFileSync(new URL("./scripts/media-suites.json", import.meta.url), "utf8")) as {
    files: string[];
  }
).files;
const mediaRun = process.env.TROVE_MEDIA_TESTS === "1";

/** The settings every package's vitest project shares: source-first resolution. */
export function troveProject(name: string, test: UserWorkspaceConfig["test"] = {}) {
  const exclude = [...(test.exclude ?? configDefaults.exclude), ...(mediaRun ? [] : MEDIA_SUITES)];
  return defineProject({
    resolve: { conditions: ["dev-source"] },
    ssr: { resolve: { conditions: ["dev-source"], externalConditions: ["dev-source"] } },
    test: { name, ...test, exclude, ...(mediaRun ? { include: MEDIA_SUITES } : {}) },
  });
}
