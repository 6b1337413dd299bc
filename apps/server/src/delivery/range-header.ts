/**
 * The `Range` request header of RFC 9110, as delivery supports it: one `bytes=` range. Anything
 * else (other units, several ranges, malformed text) asks for the whole entity.
 */

export type RangeResult =
  | { kind: "none" }
  | { kind: "range"; start: number; end: number }
  | { kind: "unsatisfiable" };

/**
 * Parses a `Range` header against an entity of `size` bytes. Malformed or multi-range headers are
 * ignored (`none`: serve everything); a syntactically valid single range that selects nothing is
 * `unsatisfiable`.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: "none" };
  // Each optional group owns its trailing blanks, so no two quantifiers compete for the same
  // characters (the shape `\s*(\d*)\s*` backtracks cubically on a header of blanks).
  const match = /^\s*bytes\s*=\s*(?:(\d+)\s*)?-\s*(?:(\d+)\s*)?$/i.exec(header);
  if (!match) return { kind: "none" };
  const [, startText = "", endText = ""] = match;
  if (startText === "" && endText === "") return { kind: "none" };
  if (startText === "") {
    // Suffix range: the last N bytes.
    const suffix = Number(endText);
    if (!Number.isSafeInteger(suffix)) return { kind: "none" };
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "range", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(startText);
  const end = endText === "" ? size - 1 : Number(endText);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return { kind: "none" };
  if (endText !== "" && end < start) return { kind: "none" };
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "range", start, end: Math.min(end, size - 1) };
}
