import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

/** The `.ts` files under `directory` that ship: test files are left out (they never see requests). */
export function sourceFiles(repositoryRoot: string, directory: string): string[] {
  const root = join(repositoryRoot, directory);
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts"))
    .map((name) => relative(repositoryRoot, join(root, name)))
    .sort();
}
