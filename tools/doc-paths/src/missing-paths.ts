/**
 * Every repository path named in the docs and code comments that does not exist.
 *
 * Read: `docs/*.md`, every `README*.md`, `e2e/SECURITY.md`, and the comments of the source files
 * (TypeScript, JavaScript, Prisma) under apps/, packages/, e2e/, bench/, tools/ and examples/.
 * A word is a path by the rule of ./path-candidates.ts and is looked for as ./path-exists.ts
 * says; a line with the marker of ./ignore-marker.ts is not read. A path that git ignores
 * (`.trove/`, `bench/RESULTS.quick.md`, build output) is made by running something, so a fresh
 * clone lacks it: it is not a finding.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { commentLines, hasComments, type TextLine } from "./comment-lines.js";
import { IGNORE_MARKER } from "./ignore-marker.js";
import { markdownLines } from "./markdown-lines.js";
import { pathCandidates } from "./path-candidates.js";
import { candidatePaths, pathExists } from "./path-exists.js";
import type { Repository } from "./repository.js";

export interface Finding {
  file: string;
  line: number;
  path: string;
}

const CODE_FOLDERS = ["apps", "packages", "e2e", "bench", "tools", "examples"];
const DOCS = [/^docs\/[^/]+\.md$/, /(^|\/)README[^/]*\.md$/, /^e2e\/SECURITY\.md$/];

/** The files the check reads. */
export function filesToCheck(repo: Repository): string[] {
  return [...repo.files]
    .filter(
      (file) =>
        DOCS.some((doc) => doc.test(file)) ||
        (CODE_FOLDERS.includes(file.split("/")[0] ?? "") && hasComments(file)),
    )
    .sort();
}

/** The missing paths one file names; `text` is its content. */
export function missingPathsIn(repo: Repository, file: string, text: string): Finding[] {
  const lines: TextLine[] = file.endsWith(".md") ? markdownLines(text) : commentLines(file, text);
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const { line, text: content } of lines) {
    if (content.includes(IGNORE_MARKER)) continue;
    for (const word of pathCandidates(content, repo.topLevel)) {
      const key = `${line}:${word}`;
      if (seen.has(key) || pathExists(repo, word, file)) continue;
      seen.add(key);
      findings.push({ file, line, path: word });
    }
  }
  return findings;
}

/** The missing paths of the whole repository at `root`. */
export function missingPaths(root: string, repo: Repository): Finding[] {
  const findings = filesToCheck(repo).flatMap((file) =>
    missingPathsIn(repo, file, readFileSync(path.join(root, file), "utf8")),
  );
  const meanings = findings.map((finding) => candidatePaths(repo, finding.path, finding.file));
  const ignored = ignoredByGit(root, meanings.flat());
  return findings.filter((_, index) => !meanings[index]?.some((meaning) => ignored.has(meaning)));
}

/** Which of `paths` git ignores (`git check-ignore` exits 1 when none is). */
function ignoredByGit(root: string, paths: string[]): Set<string> {
  const checked = paths.filter((entry) => entry !== "" && !entry.includes("*"));
  if (checked.length === 0) return new Set();
  // A missing path may be a folder, which a pattern such as `.ci/node-majors/` names only with its slash.
  const result = spawnSync("git", ["check-ignore", "--no-index", "--stdin"], {
    cwd: root,
    input: checked.flatMap((entry) => [entry, `${entry}/`]).join("\n"),
    encoding: "utf8",
  });
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`git check-ignore failed: ${result.stderr}`);
  return new Set(
    result.stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => line.replace(/\/$/, "")),
  );
}
