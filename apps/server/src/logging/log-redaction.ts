/**
 * Secrets that travel in URLs, removed before a URL or a message that may quote one is logged.
 *
 *   redactUrl("/api/v1/multipart/parts/s/1?expires=9&signature=ab12")
 *     -> "/api/v1/multipart/parts/s/1?expires=9&signature=[REDACTED]"
 *
 * A part URL stays valid for up to 7 days and a presigned S3 URL for as long as it says, so their
 * signatures and credentials are as good as a key to whoever reads the logs. Removed: the values
 * of secret query parameters (`signature`, `X-Amz-Signature`, `X-Amz-Credential`,
 * `X-Amz-Security-Token`, `token`, `key`, `api_key`, ...; `expires` and the like stay, they help
 * debugging), anything shaped like a Trove API key, and `Bearer` credentials. Works on any text,
 * so error messages and stacks that quote a URL are covered too.
 */

export const REDACTED = "[REDACTED]";

const SECRET_PARAMETERS = [
  "signature",
  "sig",
  "x-amz-signature",
  "x-amz-credential",
  "x-amz-security-token",
  "x-goog-signature",
  "x-goog-credential",
  "token",
  "access_token",
  "upload_token",
  "key",
  "api_key",
  "apikey",
  "api-key",
  "x-api-key",
  "secret",
  "password",
];

/** `?name=value` or `&name=value` with a secret name; the value runs to the next separator. */
const SECRET_QUERY = new RegExp(`([?&;](?:${SECRET_PARAMETERS.join("|")})=)[^&;#\\s"'<>]*`, "gi");
const API_KEY = /trove_(?:pk|sk)_[0-9A-Za-z]+/g;
const BEARER = /(Bearer\s+)[^\s"',]+/gi;

/** `text` (a URL, a message, a stack) with every secret query value, API key and bearer token replaced. */
export function redactUrl(text: string): string {
  return text
    .replace(SECRET_QUERY, `$1${REDACTED}`)
    .replace(API_KEY, REDACTED)
    .replace(BEARER, `$1${REDACTED}`);
}

/** A copy of `value` with `redactUrl` applied to every string in it, to `depth` levels of nesting. */
export function redactStrings(value: unknown, depth = 4): unknown {
  if (typeof value === "string") return redactUrl(value);
  if (depth <= 0 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, depth - 1));
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [name, redactStrings(item, depth - 1)]),
  );
}
