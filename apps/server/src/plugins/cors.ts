/**
 * `cors` plugin: lets pages on other origins call the API, PUT parts to the part gateway and read
 * from the delivery host, e.g. `@trove/sdk/upload` with a public key in a page on
 * https://app.example.com talking to https://api.example.com.
 *
 *   TROVE_CORS_ORIGINS   unset or "*": any origin (`Access-Control-Allow-Origin: *`, the default)
 *                        "https://app.example.com,http://localhost:5173": only these origins
 *                        "none": no CORS headers at all (same-origin pages and servers only)
 *
 * `*` is a safe default here: keys travel in headers (`x-api-key`, `Authorization: Bearer`), never
 * in cookies, and credentials are never allowed, so a page on another origin can act only with a key
 * it already holds, exactly as curl could. A list narrows which sites may embed uploads.
 *
 * Preflights are answered in this plugin's onRequest hook, before rate limiting and auth (a
 * preflight carries no key), so it is registered before those plugins.
 */
import fastifyCors from "@fastify/cors";
import fp from "fastify-plugin";
import { ConfigError } from "../config.js";

export type CorsOrigins = "*" | false | readonly string[];

/** Request headers a page may send: the key headers and the JSON/part body type. */
export const CORS_ALLOWED_HEADERS = ["x-api-key", "authorization", "content-type"];
/** Response headers a page may read (the SDK reads them: request ids on errors, Retry-After on 429). */
export const CORS_EXPOSED_HEADERS = ["x-request-id", "etag", "retry-after"];
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** Parses TROVE_CORS_ORIGINS (see above). Throws ConfigError for a value that is not an origin. */
export function parseCorsOrigins(value: string | undefined): CorsOrigins {
  const trimmed = value?.trim() ?? "";
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
      throw new ConfigError(
        `Invalid environment: TROVE_CORS_ORIGINS: "${origin}" is not an origin like https://app.example.com`,
      );
    }
    return origin;
  });
}

export interface CorsPluginOptions {
  /** Default: TROVE_CORS_ORIGINS from the environment. */
  origins?: CorsOrigins;
}

export const corsPlugin = fp<CorsPluginOptions>(
  async (app, options) => {
    const origins = options.origins ?? parseCorsOrigins(process.env.TROVE_CORS_ORIGINS);
    await app.register(fastifyCors, {
      origin: origins === "*" ? "*" : origins === false ? false : [...origins],
      methods: METHODS,
      allowedHeaders: CORS_ALLOWED_HEADERS,
      exposedHeaders: CORS_EXPOSED_HEADERS,
      credentials: false,
      // Browsers cache a preflight this long (Chromium caps it at 2 h); a changed list applies soon.
      maxAge: 600,
      // A bare OPTIONS without Origin is not a browser preflight; answer it instead of a text 400.
      strictPreflight: false,
    });
  },
  { name: "trove-cors" },
);
