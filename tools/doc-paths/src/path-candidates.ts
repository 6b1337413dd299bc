/**
 * Which words of a line of prose are repository paths. The rule, so that a word is either checked
 * or plainly not a path:
 *
 * - a run of path characters (letters, digits, `_ @ . - / *` and `{a,b}` groups) with a `/` in
 *   it, not starting with `/` or `@` and not right after `/`, `:`, `~`, `$` or `}` (absolute
 *   paths, package names such as `@trove/sdk/upload`, URLs such as `https://…`,
 *   `node:fs/promises`, template holes);
 * - whose last segment ends in a known source, doc or config extension (KNOWN_EXTENSIONS), or
 *   whose first segment is one of the repository's top-level names or a package's folder
 *   (FIRST_SEGMENTS: src, test, prisma, scripts).
 *
 * Media extensions (`.jpg`, `.png`, ...) are not known: in this repository they name a user's
 * files (`photos/2024/cat.jpg`), never ours. A segment `dist`, `generated` or `node_modules` makes
 * a word a build output, which a fresh clone does not have: not checked (./missing-paths.ts also
 * drops any path git ignores).
 */

export const KNOWN_EXTENSIONS = [
  "ts",
  "tsx",
  "mts",
  "cts",
  "js",
  "mjs",
  "cjs",
  "json",
  "md",
  "prisma",
  "sql",
  "yaml",
  "yml",
  "toml",
  "sh",
  "html",
  "css",
  "patch",
];

/** Folders inside a package that a path may start from besides the repository's top level. */
export const FIRST_SEGMENTS = ["src", "test", "prisma", "scripts"];

const BUILD_OUTPUTS = new Set(["dist", "generated", "node_modules", "coverage", ".turbo"]);

const RUN = /(?:[\w@.*-]|\/|\{[\w@.*,/-]*\})+/g;
const NOT_BEFORE = new Set(["/", ":", "~", "$", "}", "\\"]);
const EXTENSION = new RegExp(`\\.(?:${KNOWN_EXTENSIONS.join("|")})$`);

/** The words of `line` that name repository paths; `topLevel`: the repository's top-level folders. */
export function pathCandidates(line: string, topLevel: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const match of line.matchAll(RUN)) {
    const before = match.index > 0 ? line[match.index - 1] : "";
    if (before && NOT_BEFORE.has(before)) continue;
    // A sentence's full stop, an ellipsis or a dash after the path is not part of it.
    const word = match[0].replace(/[.-]+$/, "");
    if (!word.includes("/") || word.startsWith("/") || word.startsWith("@")) continue;
    const segments = word.split("/").filter((segment) => segment !== "");
    if (segments.some((segment) => BUILD_OUTPUTS.has(segment))) continue;
    const first = segments.find((segment) => segment !== "." && segment !== "..") ?? "";
    const last = segments[segments.length - 1] ?? "";
    const named = EXTENSION.test(last) || topLevel.has(first) || FIRST_SEGMENTS.includes(first);
    if (named) found.push(word);
  }
  return found;
}
