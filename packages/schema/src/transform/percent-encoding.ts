import { accept, refuse, type ValueResult } from "./value-result.js";

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const ENCODER = new TextEncoder();

/**
 * Decodes a layer's text or path. `%XX` escapes give bytes; other characters stand for
 * themselves (a URL carries them encoded, a JSON `transform` field may not), except `,` and `/`. The bytes must be
 * UTF-8: an escape that is not `%` + two hex digits, or bytes that are not UTF-8 (a lone
 * `%C3`, an overlong form, a lone surrogate), are refused, never replaced. Scanned by hand, in
 * one pass, after the caller has bounded the length.
 */
export function percentDecode(text: string, what: string): ValueResult<string> {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x25) {
      const high = hexValue(text.charCodeAt(i + 1));
      const low = hexValue(text.charCodeAt(i + 2));
      if (high < 0 || low < 0) return refuse(`${what} has a % that is not followed by two hex digits`);
      bytes.push(high * 16 + low);
      i += 2;
    } else if (code === 0x2c || code === 0x2f) {
      // `,` and `/` separate directives and steps: written raw they cannot be text.
      return refuse(`${what} must write , and / as %2C and %2F`);
    } else if (code < 0x80) {
      bytes.push(code);
    } else {
      const codePoint = text.codePointAt(i) ?? code;
      const char = String.fromCodePoint(codePoint);
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) return refuse(`${what} is not valid UTF-8`);
      for (const byte of ENCODER.encode(char)) bytes.push(byte);
      i += char.length - 1;
    }
  }
  try {
    return accept(UTF8.decode(Uint8Array.from(bytes)));
  } catch {
    return refuse(`${what} is not valid UTF-8`);
  }
}

/**
 * The canonical spelling of a layer's text or path: its UTF-8 bytes, each one outside
 * `A-Z a-z 0-9 - . ~` written `%XX` (uppercase hex). So `,` `/` `:` `_` `%` and spaces can
 * never be read as syntax, and one text has one spelling.
 */
export function percentEncode(text: string): string {
  let out = "";
  for (const byte of ENCODER.encode(text)) {
    out += isUnreserved(byte)
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Whether a decoded text holds a control character (C0, DEL or C1): never drawn, never a path. */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

function isUnreserved(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) || // 0-9
    (byte >= 0x41 && byte <= 0x5a) || // A-Z
    (byte >= 0x61 && byte <= 0x7a) || // a-z
    byte === 0x2d || // -
    byte === 0x2e || // .
    byte === 0x7e // ~
  );
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}
