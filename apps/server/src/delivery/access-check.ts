/**
 * Who may have a stored file (or a variant of it) from the delivery host, and how it may be cached.
 *
 * - A deleted or inactive file, or a temporary one past its `expires_at`: nobody (404). The expiry
 *   sweep deletes it later (src/files/expire-files.ts); its latency never serves an expired file.
 *   Until then a temporary file is cached for its remaining life at most, never a year.
 * - A request carrying `exp`/`sig` must carry a valid signature for this file (its row's id, so
 *   not a former file at the same path) and this transform, whether the file is private or not; a wrong, expired or foreign signature is a 404 exactly
 *   like a missing file, so a signed URL never tells which part was wrong, nor that the file
 *   exists.
 * - A private file is served only with a valid signature, `Cache-Control: private` for at most
 *   the URL's remaining life (shared caches must not keep it).
 * - Otherwise the public Cache-Control the caller gives.
 * - A file an image layer names (`l_image:`) must be `publiclyServable`, signature or not
 *   (./layer-source.ts).
 */
import type { FastifyRequest } from "fastify";
import type { ServerConfig } from "../config.js";
import { checkDeliverySignature, signedCacheControl } from "../signing/delivery-signature.js";

export interface DeliveryAccess {
  cacheControl: string;
  /** A valid signature came with the request (strict mode lets signed URLs render any transform). */
  signed: boolean;
}

export function deliveryAccess(
  app: { config: Pick<ServerConfig, "urlSigning"> },
  request: FastifyRequest,
  target: { workspaceNo: string; transform: string },
  file: {
    id: string;
    path: string;
    isActive: boolean;
    isDelete: boolean;
    isPrivate: boolean;
    expiresAt?: Date | null;
  },
  publicCacheControl: string,
  now: Date = new Date(),
): DeliveryAccess | null {
  if (!isLive(file, now)) return null;
  const expiresAt = file.expiresAt ?? null;
  const check = checkDeliverySignature(
    app.config.urlSigning,
    { workspaceNo: target.workspaceNo, fileId: file.id, path: file.path, transform: target.transform },
    request.query as { exp?: unknown; sig?: unknown },
  );
  if (check.kind === "invalid") return null;
  if (check.kind === "valid") {
    const until = expiresAt && expiresAt < check.expiresAt ? expiresAt : check.expiresAt;
    return { cacheControl: signedCacheControl(until, now), signed: true };
  }
  if (file.isPrivate) return null;
  return {
    cacheControl: expiresAt ? temporaryCacheControl(expiresAt, now) : publicCacheControl,
    signed: false,
  };
}

type AccessedFile = Pick<
  Parameters<typeof deliveryAccess>[3],
  "isActive" | "isDelete" | "isPrivate" | "expiresAt"
>;

/** Active, not deleted, not past its expiry: a file delivery may show to someone. */
function isLive(file: Omit<AccessedFile, "isPrivate">, now: Date): boolean {
  const expiresAt = file.expiresAt ?? null;
  return file.isActive && !file.isDelete && !(expiresAt && expiresAt <= now);
}

/**
 * Whether anyone may have `file` without a signature. An image layer (src/delivery/layer-source.ts)
 * may only show such a file: a signature covers its own file, not the files its layers name.
 */
export function publiclyServable(file: AccessedFile, now: Date = new Date()): boolean {
  return isLive(file, now) && !file.isPrivate;
}

/** A public temporary file: shared caches may keep it until it expires, not after. */
function temporaryCacheControl(expiresAt: Date, now: Date): string {
  const seconds = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  return `public, max-age=${seconds}`;
}
