/**
 * The admin API's credential: `Authorization: Bearer <TROVE_ADMIN_TOKEN>`. Compared in constant
 * time over SHA-256 digests, so neither the content nor the length of the configured token leaks
 * through response timing (timingSafeEqual alone needs equal lengths and would reveal the length).
 * Workspace keys never match: the token is a separate secret.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";

/** The bearer credential of a request's Authorization header, or undefined. */
export function bearerTokenOf(request: Pick<FastifyRequest, "headers">): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  return match?.[1];
}

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/** Whether `given` is the admin token; false when either is missing. */
export function isAdminToken(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || given === undefined) return false;
  return timingSafeEqual(digest(expected), digest(given));
}
