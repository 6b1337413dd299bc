import { randomUUID } from "node:crypto";

/**
 * A UUID version 7 (RFC 9562): 48-bit Unix milliseconds, then random bits. The same kind of id
 * the database gives rows by default (`@default(uuid(7))`), generated here because an upload's
 * object key (`<workspaceId>/<fileId>/<name>`) is chosen before its row exists.
 *
 * The 74 random bits are taken from a version 4 UUID: `randomUUID` draws from a cache of random
 * bytes, where `randomBytes(16)` costs a call into the CSPRNG on every upload.
 */
export function uuidV7(now: number = Date.now()): string {
  if (!Number.isSafeInteger(now) || now < 0 || now >= 2 ** 48) {
    throw new RangeError("uuidV7: the time must be a Unix millisecond count that fits in 48 bits");
  }
  // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: 12 random bits after the version, then the variant
  // (already RFC 9562's) and 62 more.
  const random = randomUUID();
  const time = now.toString(16).padStart(12, "0");
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}
