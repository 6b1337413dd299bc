/**
 * Signed part URLs of the part gateway (gateway mode):
 *
 *   {gatewayBase}/api/v1/multipart/parts/{sessionId}/{partNumber}?expires={unix}&signature={hex}
 *
 * `signature` is hex HMAC-SHA256 over `"{sessionId}:{partNumber}:{expires}"` with a key derived
 * from TROVE_SECRET_KEY for this purpose only (HKDF, src/crypto/secret-box.ts). No API key is in
 * the URL; whoever holds it may upload that one part of that session until `expires`. Every
 * instance sharing TROVE_SECRET_KEY can verify any URL, so parts may land on any instance.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { routeOf } from "@trove/schema";
import { deriveKey } from "../crypto/secret-box.js";

const PURPOSE = "multipart-part-url";

export class PartUrlSigner {
  private readonly key: Buffer;
  /** The part gateway's path, `:sessionId` and `:partNumber` in it (the route table's). */
  private readonly path = routeOf("uploadPart").path;

  constructor(
    secretKey: Buffer,
    /** Base URL of the gateway, no trailing slash (`https://upload.example.com`). */
    private readonly baseUrl: string,
  ) {
    this.key = deriveKey(secretKey, PURPOSE);
  }

  signature(sessionId: string, partNumber: number | string, expires: number | string): string {
    return createHmac("sha256", this.key).update(`${sessionId}:${partNumber}:${expires}`).digest("hex");
  }

  /** The URL of part `partNumber` (1-based), valid until `expires` (Unix seconds). */
  url(sessionId: string, partNumber: number, expires: number): string {
    const signature = this.signature(sessionId, partNumber, expires);
    const path = this.path.replace(":sessionId", sessionId).replace(":partNumber", String(partNumber));
    return `${this.baseUrl}${path}?expires=${expires}&signature=${signature}`;
  }

  /**
   * Checks the signature of a request's raw path parameters and query values, in constant time.
   * Says nothing about expiry: compare `expires` with the clock after this returns true.
   */
  verify(sessionId: string, partNumber: string, expires: string, signature: string): boolean {
    if (!/^[0-9a-f]{64}$/.test(signature)) return false;
    const expected = Buffer.from(this.signature(sessionId, partNumber, expires), "hex");
    return timingSafeEqual(expected, Buffer.from(signature, "hex"));
  }
}
