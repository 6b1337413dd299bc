/**
 * Whether a path named in `fromFile` exists. A path is tried against the folder of the file that
 * names it, the repository root, the file's package and that package's `src/` (in the server, a
 * comment may name a folder from its package or from its src). A Markdown document
 * speaks of the whole repository (the root's docs cite the server's `src/` files, e2e/SECURITY.md
 * the server's tests): it is tried against every workspace package and its `src/`.
 * A path starting with `./` or `../` is tried against the file's folder and each folder above it
 * up to its package (a usage sketch is written from its reader's folder, a sibling's or a test's).
 *
 * - `x.js` also matches `x.ts`, `x.tsx` or `x.mts`, as TypeScript resolves an import.
 * - `*` matches within a segment, `**` across segments; `{a,b}` names both, and both must exist.
 * - A trailing `/` names a folder.
 */
import path from "node:path";
import { packageOf, type Repository } from "./repository.js";

export function pathExists(repo: Repository, word: string, fromFile: string): boolean {
  return expandBraces(word).every((one) =>
    candidatePaths(repo, one, fromFile).some((target) => found(repo, target)),
  );
}

/** The repository-relative paths `word` may mean, in the order they are tried. */
export function candidatePaths(repo: Repository, word: string, fromFile: string): string[] {
  return expandBraces(word).flatMap((one) =>
    baseFolders(repo, one, fromFile).flatMap((base) => {
      const joined = path.posix.normalize(path.posix.join(base, one)).replace(/\/$/, "");
      return joined.startsWith("../") ? [] : [joined === "." ? "" : joined];
    }),
  );
}

function baseFolders(repo: Repository, word: string, fromFile: string): string[] {
  const pkg = packageOf(repo, fromFile);
  const folders: string[] = [];
  for (let dir = folderOf(fromFile); ; dir = folderOf(dir)) {
    folders.push(dir);
    if (dir === pkg || dir === "") break;
  }
  if (word.startsWith("./") || word.startsWith("../")) return folders;
  const packages = fromFile.endsWith(".md") ? repo.packages : [pkg];
  return [folders[0] ?? "", "", ...packages.flatMap((dir) => [dir, dir === "" ? "src" : `${dir}/src`])];
}

function folderOf(file: string): string {
  const folder = path.posix.dirname(file);
  return folder === "." ? "" : folder;
}

function found(repo: Repository, target: string): boolean {
  if (target.includes("*")) return matchesGlob(repo, target);
  if (repo.files.has(target) || repo.dirs.has(target)) return true;
  const script = /\.(m?js)$/.exec(target);
  if (!script) return false;
  const stem = target.slice(0, -script[0].length);
  return [".ts", ".tsx", ".mts"].some((extension) => repo.files.has(stem + extension));
}

function matchesGlob(repo: Repository, glob: string): boolean {
  const source = glob
    .split("**")
    .map((part) =>
      part
        .split("*")
        .map((text) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]*"),
    )
    .join(".*");
  const pattern = new RegExp(`^${source}$`);
  for (const file of repo.files) if (pattern.test(file)) return true;
  for (const dir of repo.dirs) if (pattern.test(dir)) return true;
  return false;
}

/** `x/{b,c}` -> `x/b`, `x/c` (one level of braces per group; groups multiply). */
export function expandBraces(word: string): string[] {
  const open = word.indexOf("{");
  const close = open === -1 ? -1 : word.indexOf("}", open);
  if (close === -1) return [word];
  const head = word.slice(0, open);
  const tail = word.slice(close + 1);
  return word
    .slice(open + 1, close)
    .split(",")
    .flatMap((choice) => expandBraces(`${head}${choice}${tail}`));
}
