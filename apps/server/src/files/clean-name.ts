/**
 * A file or folder name as given by a caller, with outer whitespace removed, or a 400 for names
 * that cannot be one path segment: empty, `.`/`..`, containing `/`, `\`, control characters or
 * bidirectional controls, or reading as a transformation step.
 *
 *   cleanName("  holiday ")       -> "holiday"
 *   cleanName("a/b")              -> throws 400 "name must not contain path separators"
 *   cleanName("x\n", "folder")    -> throws 400 "folder must not contain control characters"
 *   cleanName("w_300", "folder")  -> throws 400 (a delivery URL would read it as a resize)
 *   cleanName("t_card", "folder") -> throws 400 (a delivery URL would read it as a named transform)
 */
import { isTransformStep } from "@trove/schema";
import { badRequest } from "../errors/index.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
// Bidirectional controls make a name display as something else (`cat\u202Egpj.exe` shows as
// `catexe.jpg`), in listings and in URLs alike.
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export function cleanName(name: string, what = "name"): string {
  const trimmed = name.trim();
  if (CONTROL.test(trimmed)) throw badRequest(`${what} must not contain control characters`);
  if (BIDI_CONTROL.test(trimmed)) {
    throw badRequest(`${what} must not contain bidirectional control characters`);
  }
  if (/[/\\]/.test(trimmed)) throw badRequest(`${what} must not contain path separators`);
  if (trimmed === "" || trimmed === "." || trimmed === "..") throw badRequest(`${what} must not be blank`);
  if (isTransformStep(trimmed)) {
    throw badRequest(
      `${what} must not read as a transformation step ("${trimmed}"): delivery URLs put transformations in that place`,
    );
  }
  return trimmed;
}
