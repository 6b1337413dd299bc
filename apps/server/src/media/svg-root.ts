/**
 * Whether a text starts like an SVG document: an optional byte order mark, an optional XML
 * declaration, any number of comments and doctypes (a doctype may carry an internal subset in
 * brackets), whitespace between them, then the root element `<svg` followed by whitespace, `>`
 * or `/`. Keywords match in any ASCII case.
 *
 *   startsWithSvgRoot('<?xml version="1.0"?><!-- logo --><svg viewBox="0 0 1 1">')  -> true
 *   startsWithSvgRoot('<!DOCTYPE svg [<!ENTITY x "y">]>\n<svg>')                      -> true
 *   startsWithSvgRoot("<!-- unterminated <svg>")                                      -> false
 *   startsWithSvgRoot("<svgx>")                                                       -> false
 *
 * A hand-written scanner rather than a regular expression: the head of every text upload comes
 * from the caller, and a regex with repeated, overlapping alternatives (`(<!--.*?-->|...)*`)
 * backtracks exponentially on a run of comments that never reaches `<svg`. Here every character
 * is looked at a bounded number of times, so the cost is linear in the head's length.
 *
 * Each construct ends where XML ends it: a comment at the first `-->`, a declaration at the first
 * `>`, an internal subset at the first `]` followed by optional whitespace and `>`. (A backtracking
 * regex would also try later ends, so a few malformed prologs such as `<!-- a --> b --> <svg>`
 * used to count as SVG; they are text now, which is the inert side.) A doctype's internal subset
 * is how XXE payloads start: such a file is still labelled SVG, and never parsed by the server.
 */
export function startsWithSvgRoot(text: string): boolean {
  let at = skipWhitespace(text, text.startsWith("\uFEFF") ? 1 : 0);
  if (startsWithKeyword(text, at, "<?xml")) {
    const end = text.indexOf(">", at + "<?xml".length);
    if (end === -1 || end - 1 < at + "<?xml".length || text[end - 1] !== "?") return false;
    at = skipWhitespace(text, end + 1);
  }
  for (;;) {
    let end: number;
    if (text.startsWith("<!--", at)) end = commentEnd(text, at + "<!--".length);
    else if (startsWithKeyword(text, at, "<!doctype")) end = doctypeEnd(text, at + "<!doctype".length);
    else break;
    if (end === -1) return false;
    at = skipWhitespace(text, end);
  }
  if (!startsWithKeyword(text, at, "<svg")) return false;
  const next = text[at + "<svg".length];
  return next !== undefined && (next === ">" || next === "/" || isWhitespace(next));
}

/** Past the `-->` that closes a comment whose body starts at `from`, or -1. */
function commentEnd(text: string, from: number): number {
  const close = text.indexOf("-->", from);
  return close === -1 ? -1 : close + "-->".length;
}

/** Past the `>` that closes a doctype whose name and ids start at `from`, or -1. */
function doctypeEnd(text: string, from: number): number {
  for (let at = from; at < text.length; at += 1) {
    if (text[at] === ">") return at + 1;
    if (text[at] === "[") return internalSubsetEnd(text, at + 1);
  }
  return -1;
}

/** Past the `]` + whitespace + `>` that closes an internal subset starting at `from`, or -1. */
function internalSubsetEnd(text: string, from: number): number {
  let at = from;
  for (;;) {
    const bracket = text.indexOf("]", at);
    if (bracket === -1) return -1;
    // The whitespace skipped holds no `]`, so the next search may start after it: linear overall.
    at = skipWhitespace(text, bracket + 1);
    if (text[at] === ">") return at + 1;
  }
}

// `\s` as in JavaScript regexes (Unicode spaces and line terminators, BOM included), one
// character at a time: a single-character class cannot backtrack.
const WHITESPACE = /\s/;
const isWhitespace = (char: string): boolean => WHITESPACE.test(char);

function skipWhitespace(text: string, from: number): number {
  let at = from;
  while (at < text.length && isWhitespace(text[at]!)) at += 1;
  return at;
}

/** `keyword` (lowercase ASCII) at `at`, letters in either case; non-ASCII never matches. */
function startsWithKeyword(text: string, at: number, keyword: string): boolean {
  if (at + keyword.length > text.length) return false;
  for (let index = 0; index < keyword.length; index += 1) {
    const code = text.charCodeAt(at + index);
    const lower = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
    if (lower !== keyword.charCodeAt(index)) return false;
  }
  return true;
}
