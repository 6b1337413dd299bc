/** Random identifiers: short public numbers (`workspace_no`, `folder_no`) and base62 key material. */
import { randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const LOWER_ALNUM = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Unbiased random string over `alphabet` (rejection sampling on random bytes). */
export function randomString(length: number, alphabet: string = BASE62): string {
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * A short lowercase alphanumeric public number (`workspace_no`, `folder_no`): 10 characters,
 * about 51 bits, so collisions are rare; callers still retry on a unique violation.
 */
export function randomShortNo(length = 10): string {
  // Start with a letter so it never looks like (or sorts like) a number.
  return randomString(1, LOWER_ALNUM.slice(10)) + randomString(length - 1, LOWER_ALNUM);
}
