import { randomBytes } from "node:crypto";

/**
 * A UUID version 7 (RFC 9562): 48-bit Unix milliseconds, then random bits. The same kind of id
 * the database gives rows by default (`@default(uuid(7))`), generated here because an upload's
 * object key (`<workspaceId>/<fileId>/<name>`) is chosen before its row exists.
 */
export function uuidV7(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
