/**
 * Signed delivery URLs: how a private file (and any variant of it) is served.
 *
 *   {assets}/{workspace_no}/{transform/}{path}?exp=<unix seconds>&sig=<kid>.<mac>
 *
 * `mac` is base64url(HMAC-SHA256(key, "v2\n{workspace_no}\n{file id}\n{path}\n{transform}\n{exp}"))
 * where `file id` is the file row's uuid and `transform` the canonical transform ("" for the file
 * itself), so a signature is good for one file, one transform and one expiry: another path,
 * another transform, a later `exp` or another workspace fails. The id is what binds the URL to the
 * file it was issued for rather than to its path: delete or rename a file and put other bytes (or
 * the same bytes) at its old path, and the new row's id is another, so the old link is refused.
 * Verifying therefore needs the row the path resolves to. `v1` signatures (path only, before the
 * id was signed) never verify. Verification compares in constant time. A URL whose `sig` fails,
 * whatever the reason, is answered exactly like a missing file (no oracle for which part was wrong).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { UrlSigningKey, UrlSigningKeys } from "./url-signing-keys.js";

/** Longest lifetime of a signed URL, seconds (7 days); also how long a rotated-out key verifies. */
export const MAX_SIGNED_URL_TTL_SECONDS = 7 * 24 * 3600;

export interface SignedTarget {
  workspaceNo: string;
  /** The file row's id: a later file at the same path is another file. */
  fileId: string;
  /** The file's path (decoded). */
  path: string;
  /** Canonical transform, "" for the file itself. */
  transform: string;
}

function mac(key: UrlSigningKey, target: SignedTarget, exp: number): string {
  return createHmac("sha256", key.secret)
    .update(`v2\n${target.workspaceNo}\n${target.fileId}\n${target.path}\n${target.transform}\n${exp}`)
    .digest("base64url");
}

/** The query string (`exp=…&sig=…`) that signs `target` until `expiresAt`. */
export function signDelivery(keys: UrlSigningKeys, target: SignedTarget, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000);
  return `exp=${exp}&sig=${keys.current.id}.${mac(keys.current, target, exp)}`;
}

export type SignatureCheck = { kind: "unsigned" } | { kind: "valid"; expiresAt: Date } | { kind: "invalid" };

/** Checks the `exp` and `sig` query parameters of a delivery request against `target`. */
export function checkDeliverySignature(
  keys: UrlSigningKeys,
  target: SignedTarget,
  query: { exp?: unknown; sig?: unknown },
  now = new Date(),
): SignatureCheck {
  if (query.sig === undefined && query.exp === undefined) return { kind: "unsigned" };
  if (typeof query.sig !== "string" || typeof query.exp !== "string" || !/^\d{1,12}$/.test(query.exp))
    return { kind: "invalid" };
  const exp = Number(query.exp);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (exp <= nowSeconds || exp > nowSeconds + MAX_SIGNED_URL_TTL_SECONDS) return { kind: "invalid" };
  const dot = query.sig.indexOf(".");
  const kid = query.sig.slice(0, dot);
  const key = keys.current.id === kid ? keys.current : keys.previous?.id === kid ? keys.previous : undefined;
  if (dot < 0 || !key) return { kind: "invalid" };
  const given = Buffer.from(query.sig.slice(dot + 1));
  const expected = Buffer.from(mac(key, target, exp));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { kind: "invalid" };
  return { kind: "valid", expiresAt: new Date(exp * 1000) };
}

/** `Cache-Control` of a signed response: private, never beyond the URL's expiry or an hour. */
export function signedCacheControl(expiresAt: Date, now = new Date()): string {
  const seconds = Math.max(0, Math.min(3600, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)));
  return `private, max-age=${seconds}`;
}
