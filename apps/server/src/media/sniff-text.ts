import { startsWithSvgRoot } from "./svg-root.js";

/** What the head of a file that file-type did not recognise looks like. */
export type TextKind = "svg" | "text";

// C0 controls other than tab, LF, VT, FF, CR and ESC (ANSI colours in logs), and DEL, mean
// binary. In UTF-8 these bytes never occur inside a multi-byte character, so bytes suffice.
const TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b]);
const isBinaryByte = (byte: number): boolean => (byte < 0x20 && !TEXT_CONTROLS.has(byte)) || byte === 0x7f;

/**
 * Classifies a head buffer as SVG, plain text, or neither (null: binary). Only UTF-8 (with or
 * without BOM) counts as text; `truncated` says the head was cut from a longer file, so a
 * multi-byte character split at the end is not mistaken for invalid UTF-8.
 */
export function sniffText(head: Uint8Array, truncated: boolean): TextKind | null {
  if (head.length === 0 || head.some(isBinaryByte)) return null;
  const text = decodeUtf8(head, truncated);
  if (text === null) return null;
  return startsWithSvgRoot(text) ? "svg" : "text";
}

function decodeUtf8(head: Uint8Array, truncated: boolean): string | null {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  // A UTF-8 character is at most 4 bytes, so at most 3 trailing bytes can belong to a cut one.
  const cuts = truncated ? [0, 1, 2, 3] : [0];
  for (const cut of cuts) {
    if (cut >= head.length) break;
    try {
      return decoder.decode(head.subarray(0, head.length - cut));
    } catch {
      // try a shorter prefix
    }
  }
  return null;
}
