/**
 * `cors` plugin: lets pages on other origins call the API, PUT parts to the part gateway and read
 * from the delivery host, e.g. `@trove/sdk/upload` with a public key in a page on
 * https://app.example.com talking to https://api.example.com.
 *
 * Which origins: `config.corsOrigins`, from TROVE_CORS_ORIGINS (./cors-origins.ts: unset or `*`
 * any origin, the default; a comma-separated list; `none`: no CORS headers at all).
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
import { readSettings } from "../config/read-settings.js";
import type { CorsOrigins } from "./cors-origins.js";

export type { CorsOrigins };

/** Request headers a page may send: the key headers, the JSON/part body type, and tus's (src/tus/). */
export const CORS_ALLOWED_HEADERS = [
  "x-api-key",
  "authorization",
  "content-type",
  "tus-resumable",
  "upload-length",
  "upload-metadata",
  "upload-offset",
  "upload-checksum",
  "upload-defer-length",
  "upload-concat",
  "x-http-method-override",
  "x-requested-with",
];
/**
 * Response headers a page may read (the SDK reads them: request ids on errors, Retry-After on
 * 429; tus clients the tus headers, the upload's URL and the file it became).
 */
export const CORS_EXPOSED_HEADERS = [
  "x-request-id",
  "etag",
  "retry-after",
  "location",
  "upload-offset",
  "upload-length",
  "upload-metadata",
  "upload-expires",
  "tus-resumable",
  "tus-version",
  "tus-extension",
  "tus-max-size",
  "trove-file-no",
  "trove-file-url",
];
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** Reads a TROVE_CORS_ORIGINS value as loadConfig does; throws ConfigError for one that is not an origin. */
export function parseCorsOrigins(value: string | undefined): CorsOrigins {
  return readSettings({ TROVE_CORS_ORIGINS: value }, ["TROVE_CORS_ORIGINS"]).TROVE_CORS_ORIGINS;
}

export interface CorsPluginOptions {
  /** `config.corsOrigins` (TROVE_CORS_ORIGINS). */
  origins: CorsOrigins;
}

export const corsPlugin = fp<CorsPluginOptions>(
  async (app, options) => {
    const { origins } = options;
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
