/**
 * The keys that sign delivery URLs of private files. A key of its own, never the server secret
 * itself: by default derived from it (HKDF-SHA256, info "trove delivery url signing v1"), or set
 * with TROVE_URL_SIGNING_KEY. Rotation: set a new TROVE_URL_SIGNING_KEY and move the old one to
 * TROVE_URL_SIGNING_KEY_PREVIOUS; URLs signed with the old key keep working until they expire
 * (at most MAX_SIGNED_URL_TTL_SECONDS), new ones are signed with the new key. Each URL names its
 * key by a short id (`kid`), so verification never tries keys in turn.
 */
import { createHash, hkdfSync } from "node:crypto";

export interface UrlSigningKey {
  /** 8 hex characters of the key's SHA-256: public, only names the key. */
  id: string;
  secret: Buffer;
}

export interface UrlSigningKeys {
  current: UrlSigningKey;
  previous?: UrlSigningKey | undefined;
}

function keyOf(secret: Buffer): UrlSigningKey {
  return { id: createHash("sha256").update(secret).digest("hex").slice(0, 8), secret };
}

export function deriveUrlSigningSecret(serverSecret: Buffer): Buffer {
  return Buffer.from(hkdfSync("sha256", serverSecret, Buffer.alloc(0), "trove delivery url signing v1", 32));
}

export function urlSigningKeys(input: {
  serverSecret: Buffer;
  key?: Buffer | undefined;
  previous?: Buffer | undefined;
}): UrlSigningKeys {
  return {
    current: keyOf(input.key ?? deriveUrlSigningSecret(input.serverSecret)),
    ...(input.previous ? { previous: keyOf(input.previous) } : {}),
  };
}
