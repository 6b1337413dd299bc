/**
 * Which file of the console directory a /console URL names, judged on the raw URL before any
 * decoding can turn `%2e%2e` or `%2f` into path syntax. A path is refused (the caller answers 404)
 * when any segment is empty, `.`, `..` or starts with a dot, or when it holds an encoded dot,
 * slash, backslash or NUL, a backslash, or a character that does not decode: nothing a built app
 * ever links to, and everything that could name a file outside the directory. Whatever passes
 * is joined under the directory and checked to stay inside it all the same.
 */
import { extname, join, relative, sep } from "node:path";

export type ConsolePath =
  /** A file name relative to the directory (slash-separated), which may or may not exist. */
  | { kind: "file"; file: string; hasExtension: boolean }
  /** `/console` or `/console/`: the app's entry. */
  | { kind: "root" }
  | { kind: "refused" };

const FORBIDDEN_ENCODED = /%(2e|2f|5c|00)/i;

/** The console path of a raw request URL (`/console/assets/app-1a2b.js?x=1`). */
export function consolePathOf(rawUrl: string, dir: string): ConsolePath {
  const path = rawUrl.split("?", 1)[0] ?? "";
  if (path === "/console" || path === "/console/") return { kind: "root" };
  if (!path.startsWith("/console/")) return { kind: "refused" };
  const rest = path.slice("/console/".length);
  if (FORBIDDEN_ENCODED.test(rest) || rest.includes("\\")) return { kind: "refused" };
  let segments: string[];
  try {
    segments = rest.split("/").map((segment) => decodeURIComponent(segment));
  } catch {
    return { kind: "refused" };
  }
  if (segments.some((segment) => segment === "" || segment.startsWith(".") || segment.includes("\0")))
    return { kind: "refused" };
  const inside = relative(dir, join(dir, ...segments));
  if (inside.startsWith("..") || inside.includes(`..${sep}`) || inside === "") return { kind: "refused" };
  const last = segments[segments.length - 1] ?? "";
  return { kind: "file", file: segments.join("/"), hasExtension: extname(last) !== "" };
}
