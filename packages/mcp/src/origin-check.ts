/**
 * The MCP specification asks Streamable HTTP servers to validate `Origin` (DNS rebinding: a page
 * on a hostile site that resolves its name to 127.0.0.1 would otherwise drive a local server).
 * A request without `Origin` is not from a browser page and passes; one with an Origin passes
 * only when it is listed (scheme://host[:port]). Never compared with the Host header: a rebound
 * name sends its own name in both, so "same as Host" would let exactly that attack through.
 */
export function originAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  const normalised = normaliseOrigin(origin);
  if (normalised === undefined) return false;
  return allowed.some((entry) => normaliseOrigin(entry) === normalised);
}

function normaliseOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.origin === "null" ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

/** TROVE_MCP_ALLOWED_ORIGINS: comma-separated origins. */
export function parseOrigins(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}
