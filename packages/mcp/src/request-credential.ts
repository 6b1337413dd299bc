import type { IncomingMessage } from "node:http";

/**
 * The caller's own credential: `Authorization: Bearer <key or upload token>`, or `x-api-key` as
 * the REST API takes it. The HTTP transport has no credential of its own, ever: each request is
 * exactly as powerful as what it carries.
 */
export function requestCredential(req: IncomingMessage): string | undefined {
  const authorization = req.headers.authorization;
  if (typeof authorization === "string") {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    if (match?.[1]) return match[1];
  }
  const apiKey = req.headers["x-api-key"];
  if (typeof apiKey === "string" && apiKey.trim() !== "") return apiKey.trim();
  return undefined;
}
