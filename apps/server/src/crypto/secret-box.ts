/**
 * Authenticated encryption of secrets at rest (source credentials, webhook secrets):
 * AES-256-GCM with a key derived from TROVE_SECRET_KEY by HKDF per purpose.
 *
 *   const sealed = sealSecret(config.secretKey, "source-config", "AKIA...");  // "tsb1.<iv>.<ciphertext+tag>"
 *   openSecret(config.secretKey, "source-config", sealed);                     // "AKIA..."
 *
 * The purpose string is bound into the key, so a value sealed for one purpose cannot be opened
 * for another. Losing TROVE_SECRET_KEY makes sealed values unreadable.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const PREFIX = "tsb1.";

/** A 32-byte subkey of TROVE_SECRET_KEY for one purpose (HKDF-SHA256, info `trove:<purpose>`). */
export function deriveKey(secretKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secretKey, Buffer.alloc(0), `trove:${purpose}`, 32));
}

export function isSealed(value: unknown): value is string {
  return typeof value === "string" && value.startsWith(PREFIX);
}

export function sealSecret(secretKey: Buffer, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(secretKey, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${iv.toString("base64url")}.${body.toString("base64url")}`;
}

export function openSecret(secretKey: Buffer, purpose: string, sealed: string): string {
  if (!isSealed(sealed)) throw new Error("not a sealed secret");
  const [ivText, bodyText] = sealed.slice(PREFIX.length).split(".");
  if (!ivText || !bodyText) throw new Error("malformed sealed secret");
  const iv = Buffer.from(ivText, "base64url");
  const body = Buffer.from(bodyText, "base64url");
  if (iv.length !== 12 || body.length < 16) throw new Error("malformed sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(secretKey, purpose), iv);
  decipher.setAuthTag(body.subarray(body.length - 16));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString(
    "utf8",
  );
}
