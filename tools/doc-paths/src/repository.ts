/**
 * The repository as the check sees it: every file git knows or would add (tracked, or untracked
 * and not ignored), the folders they make, and the workspace packages (folders with a
 * package.json). Ignored files (build output, generated clients) are not there: a path that only
 * a build makes is not a path a fresh clone has.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

export interface Repository {
  files: ReadonlySet<string>;
  dirs: ReadonlySet<string>;
  /** Package folders, relative to the root ("" is the root's own package.json). */
  packages: readonly string[];
  /** The first segments of every path: the repository's top-level files and folders. */
  topLevel: ReadonlySet<string>;
}

/** A Repository from a list of repository-relative file paths. */
export function repositoryOf(fileList: Iterable<string>): Repository {
  const files = new Set<string>();
  const dirs = new Set<string>([""]);
  const topLevel = new Set<string>();
  const packages: string[] = [];
  for (const file of fileList) {
    files.add(file);
    topLevel.add(file.split("/")[0] ?? file);
    for (let dir = path.posix.dirname(file); dir !== "."; dir = path.posix.dirname(dir)) dirs.add(dir);
    if (path.posix.basename(file) === "package.json") {
      const dir = path.posix.dirname(file);
      packages.push(dir === "." ? "" : dir);
    }
  }
  // Longest first, so the nearest package of a file is the first that contains it.
  packages.sort((a, b) => b.length - a.length);
  return { files, dirs, packages, topLevel };
}

/** The working tree at `root` (files deleted but not yet staged as deleted are gone). */
export function readRepository(root: string): Repository {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  })
    .split("\0")
    .filter((file) => file !== "" && existsSync(path.join(root, file)));
  return repositoryOf(listed);
}

/** The package folder a file belongs to ("" for the root). */
export function packageOf(repo: Repository, file: string): string {
  return repo.packages.find((dir) => dir === "" || file.startsWith(`${dir}/`)) ?? "";
}
