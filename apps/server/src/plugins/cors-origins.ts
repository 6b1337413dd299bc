/**
 * TROVE_CORS_ORIGINS, read by src/config/settings.ts into `config.corsOrigins`:
 *
 *   unset or "*"   any origin (`Access-Control-Allow-Origin: *`, the default)
 *   "https://app.example.com,http://localhost:5173"   only these origins
 *   "none"         no CORS headers at all (same-origin pages and servers only)
 */
export type CorsOrigins = "*" | false | readonly string[];

/** Parses the value; throws a TypeError naming the first entry that is not an origin. */
export function corsOriginsOf(value: string): CorsOrigins {
  const trimmed = value.trim();
  if (trimmed === "" || trimmed === "*") return "*";
  if (trimmed.toLowerCase() === "none") return false;
  return trimmed.split(",").map((entry) => {
    const origin = entry.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new TypeError(`"${origin}" is not an origin like https://app.example.com`);
    }
    return origin;
  });
}
