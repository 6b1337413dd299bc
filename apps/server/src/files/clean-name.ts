/**
 * A file or folder name as given by a caller, with outer whitespace removed, or a 400 for names
 * that cannot be one path segment: empty, `.`/`..`, containing `/`, `\` or control characters.
 *
 *   cleanName("  holiday ")       -> "holiday"
 *   cleanName("a/b")              -> throws 400 "name must not contain path separators"
 *   cleanName("x\n", "folder")    -> throws 400 "folder must not contain control characters"
 */
import { badRequest } from "../errors/index.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export function cleanName(name: string, what = "name"): string {
  const trimmed = name.trim();
  if (CONTROL.test(trimmed)) throw badRequest(`${what} must not contain control characters`);
  if (/[/\\]/.test(trimmed)) throw badRequest(`${what} must not contain path separators`);
  if (trimmed === "" || trimmed === "." || trimmed === "..") throw badRequest(`${what} must not be blank`);
  return trimmed;
}
