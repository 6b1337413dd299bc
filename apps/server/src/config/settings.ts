/**
 * Every setting of the server, declared once: its environment variable, kind (and so its
 * parser, ./setting-kinds.ts), default, description and README group. `loadConfig`
 * (src/config.ts) reads the environment through it (./read-settings.ts); areas take their
 * defaults from here (`SETTINGS.TROVE_RATE_LIMIT_MAX.default`); the configuration table of
 * apps/server/README.md is generated from it (./settings-table.ts, checked by a test).
 *
 * A new setting: declare it here, map it into `ServerConfig` in src/config.ts, and run
 * `pnpm --filter @trove/server settings-table` to rewrite the README's table.
 */
import { z } from "zod";
import { devKeyEnv } from "../keys/dev-key-env.js";
import { parseTrustProxy, type TrustProxy } from "../network/trust-proxy.js";
import { NO_TRUSTED_RANGES, parseTrustedRanges, type TrustedRanges } from "../network/trusted-ranges.js";
import { type CorsOrigins, corsOriginsOf } from "../plugins/cors-origins.js";
import { MAX_SIGNED_URL_TTL_SECONDS } from "../signing/delivery-signature.js";
import { bytes, choice, custom, flag, int, parsed, type Setting, text, url, word } from "./setting-kinds.js";

/** TROVE_UPLOAD_RESPONSE: the success body of direct and remote upload. */
export const UPLOAD_RESPONSE_FORMS = ["wrapped", "flat"] as const;
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const MiB = 1024 * 1024;

/** TROVE_METRICS: off, on, or a port number (src/metrics/metrics-config.ts). */
const metricsSetting = z
  .string()
  .optional()
  .transform((value) => value?.trim().toLowerCase() || "off")
  .pipe(
    z.union([
      z.enum(["off", "on"]),
      z
        .string()
        .regex(/^\d{1,5}$/, 'must be "off", "on" or a port number')
        .transform(Number)
        .pipe(z.number().int().min(1).max(65535)),
    ]),
  );

const devKey = (kind: "public" | "private", description: string) =>
  custom("string", `a ${kind} key (trove_${kind === "public" ? "pk" : "sk"}_…)`, devKeyEnv(kind), {
    group: "Development",
    description,
    default: undefined,
  });

const rateLimit = (fallback: number, description: string) =>
  int({ group: "Rate limits", min: 1, default: fallback, description });

export const SETTINGS = {
  // Server
  PORT: int({ group: "Server", min: 0, max: 65535, default: 3000, description: "Port the API listens on." }),
  HOST: word({ group: "Server", default: "127.0.0.1", description: "Address the API listens on." }),
  TROVE_DATA_DIR: word({
    group: "Server",
    default: "./.trove",
    description:
      "Root of the embedded database, storage and secret key file; in a checkout of this repository, its root's `.trove` (see Commands).",
  }),
  TROVE_PUBLIC_URL: url({
    group: "Server",
    defaultText: "`http://HOST:PORT`",
    description: "Base URL the API advertises.",
  }),
  TROVE_ASSETS_URL: url({
    group: "Server",
    defaultText: "`<public url>/assets`",
    description: "Base URL of delivery links: `<assets url>/<workspace_no>/<path>`.",
  }),
  TROVE_ASSETS_PREFIX: word({
    group: "Server",
    default: "/assets",
    pattern: [/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/, "must look like /assets"],
    description: "The path this process serves stored files under.",
  }),
  TROVE_BODY_LIMIT: int({
    group: "Server",
    min: 1024,
    default: MiB,
    description: "Largest JSON or urlencoded body, bytes (uploads set their own limits).",
  }),
  TROVE_CORS_ORIGINS: parsed<CorsOrigins, CorsOrigins>("list", "`*`, `none`, or origins", corsOriginsOf, {
    group: "Server",
    default: "*",
    description:
      "Pages allowed to call the API, PUT parts and read the delivery host: `*` any origin, `none` no CORS headers, or comma-separated origins (`https://app.example.com`).",
  }),
  TROVE_MCP: choice(["off", "on"], {
    group: "Server",
    default: "off",
    description:
      "`on`: serve the Model Context Protocol at `/mcp` (Streamable HTTP, each request with its own key or upload token in `Authorization: Bearer`) through the optional package `@trove/mcp`, which must be installed; browser origins allowed are the listed `TROVE_CORS_ORIGINS` (never `*`).",
  }),
  TROVE_CONSOLE: choice(["on", "off"], {
    group: "Server",
    default: "on",
    description:
      "`on`: serve the web console at `/console` (sign-in with a private key or the admin token, cookie sessions; see Console); `off`: every `/console` path answers 404.",
  }),
  TROVE_CONSOLE_DIR: text({
    group: "Server",
    accepts: "a directory",
    defaultText: "`apps/console/dist` of this checkout; installed: the package's own `console/`",
    description: "The built console (`index.html` and `assets/`) that `/console` serves.",
  }),
  TROVE_CONSOLE_IDLE_SECONDS: int({
    group: "Server",
    min: 1,
    default: 1800,
    description:
      "A console session unused this long ends (each request slides it); any session ends 12 hours after sign-in.",
  }),
  LOG_LEVEL: choice(LOG_LEVELS, { group: "Server", default: "info", description: "Log level." }),

  // Database
  DATABASE_URL: text({
    group: "Database",
    check: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL"),
    accepts: "postgres:// URL",
    defaultText: "embedded PGlite in `<data dir>/pgdata`",
    description: "PostgreSQL to use instead of the embedded database.",
  }),
  TROVE_DATABASE_PREPARED_STATEMENTS: flag({
    group: "Database",
    default: true,
    description:
      "On PostgreSQL, prepare the list pages and an upload's row insert once per connection so they are not planned on every request; false behind a pooler that cannot keep prepared statements (PgBouncer before 1.21 in transaction mode).",
  }),

  // Secrets and keys
  TROVE_SECRET_KEY: text({
    group: "Secrets and keys",
    accepts: "32 bytes, as 64 hex characters or base64",
    defaultText: "generated once into `<data dir>/secret.key`",
    description:
      "Encrypts source secrets, signs part URLs; set it explicitly with `DATABASE_URL` and several instances.",
  }),
  TROVE_URL_SIGNING_KEY: text({
    group: "Secrets and keys",
    accepts: "32 bytes, as 64 hex characters or base64",
    defaultText: "derived from the secret key",
    description: 'Key of private files\' signed URLs (see "Private files and signed URLs").',
  }),
  TROVE_URL_SIGNING_KEY_PREVIOUS: text({
    group: "Secrets and keys",
    accepts: "32 bytes, as 64 hex characters or base64",
    description: "The signing key before the last rotation: URLs it signed keep verifying.",
  }),
  TROVE_SIGNED_URL_TTL_SECONDS: int({
    group: "Secrets and keys",
    min: 1,
    max: MAX_SIGNED_URL_TTL_SECONDS,
    default: 3600,
    description: "Lifetime of the signed URL in a private file's upload response, seconds.",
  }),
  TROVE_KEY_CACHE_MS: int({
    group: "Secrets and keys",
    min: 0,
    max: 1000,
    default: 1000,
    description:
      "How long an API key's lookup is reused, so how long a key revoked by the CLI or another instance still works here; unknown keys are never cached.",
  }),
  TROVE_ADMIN_TOKEN: text({
    group: "Secrets and keys",
    check: z.string().min(32, "must be at least 32 characters (e.g. openssl rand -hex 32)").max(512),
    accepts: "32 to 512 characters",
    defaultText: "unset: the admin API is off (404)",
    description:
      "Bearer token of the admin API under `/admin/v1` (e.g. `openssl rand -hex 32`); a separate secret, never a workspace key.",
  }),

  // Development
  TROVE_DEV_PUBLIC_KEY: devKey(
    "public",
    "A fixed development public key; the server refuses one without its kind's prefix.",
  ),
  TROVE_DEV_PRIVATE_KEY: devKey("private", "A fixed development private key."),
  TROVE_DEV_PRIVATE_KEY_2: devKey("private", "A second private key, in a workspace of its own."),
  TROVE_SEED_DEV: flag({
    group: "Development",
    defaultText: "on for the embedded database or when a dev key is set",
    description: "Create a development workspace and keys when none exists.",
  }),

  // Storage
  TROVE_STORAGE: choice(["fs", "s3"], { group: "Storage", default: "fs", description: "Storage driver." }),
  TROVE_STORAGE_DIR: text({
    group: "Storage",
    defaultText: "`<data dir>/storage`",
    description: "Where the fs driver keeps files.",
  }),
  TROVE_S3_ENDPOINT: text({ group: "Storage", description: "S3 endpoint URL (required with s3)." }),
  TROVE_S3_BUCKET: text({ group: "Storage", description: "Bucket (required with s3)." }),
  TROVE_S3_ACCESS_KEY: text({ group: "Storage", description: "Access key (required with s3)." }),
  TROVE_S3_SECRET_KEY: text({ group: "Storage", description: "Secret key (required with s3)." }),
  TROVE_S3_REGION: word({ group: "Storage", default: "us-east-1", description: "Region." }),
  TROVE_S3_PUBLIC_ENDPOINT: text({
    group: "Storage",
    defaultText: "`TROVE_S3_ENDPOINT`",
    description: "Endpoint clients use for presigned part URLs.",
  }),
  TROVE_S3_PATH_STYLE: flag({
    group: "Storage",
    default: true,
    description: "Path-style bucket addressing.",
  }),

  // Uploads
  TROVE_UPLOAD_RESPONSE: choice(UPLOAD_RESPONSE_FORMS, {
    group: "Uploads",
    default: "wrapped",
    description:
      "The success body of direct and remote upload: `{ success: true, data }`, or the bare record (see Uploads below).",
  }),
  TROVE_MAX_UPLOAD_BYTES: int({
    group: "Uploads",
    min: 1,
    default: 100 * MiB,
    description: "Largest direct or remote-URL upload, bytes.",
  }),
  TROVE_TRUSTED_RANGES: parsed<TrustedRanges, TrustedRanges>("list", "CIDR ranges", parseTrustedRanges, {
    group: "Uploads",
    default: NO_TRUSTED_RANGES,
    defaultText: "none",
    description:
      "Private or loopback ranges that remote-URL uploads, webhooks and sources' origins may reach anyway (below).",
  }),
  TROVE_REMOTE_FETCH_TIMEOUT_MS: int({
    group: "Uploads",
    min: 1,
    default: 60_000,
    description: "Deadline of a remote-URL fetch, body included, ms.",
  }),
  TROVE_TUS_EXPIRY_SECONDS: int({
    group: "Uploads",
    min: 1,
    max: 30 * 24 * 3600,
    default: 86_400,
    description: "Lifetime of an unfinished tus upload (`Upload-Expires`), seconds; swept after it.",
  }),

  // Multipart uploads
  TROVE_MULTIPART_MODE: choice(["gateway", "direct"], {
    group: "Multipart uploads",
    default: "gateway",
    description: "Part URLs point at Trove's part gateway, or are presigned S3 URLs (`direct` needs s3).",
  }),
  TROVE_GATEWAY_URL: url({
    group: "Multipart uploads",
    defaultText: "`TROVE_PUBLIC_URL`",
    description: "Base URL of the part gateway in part URLs.",
  }),
  TROVE_MULTIPART_TTL_SECONDS: int({
    group: "Multipart uploads",
    min: 1,
    max: 7 * 24 * 3600,
    default: 3600,
    description: "Session and part-URL lifetime when the client sends no `ttl_seconds`.",
  }),
  TROVE_MAX_MULTIPART_BYTES: int({
    group: "Multipart uploads",
    min: 1,
    default: 10 * 1024 ** 3,
    description: "Largest multipart upload, bytes.",
  }),
  TROVE_MULTIPART_SWEEP_INTERVAL_MS: int({
    group: "Multipart uploads",
    min: 1000,
    default: 300_000,
    description: "How often expired sessions are swept, ms.",
  }),
  TROVE_ORPHAN_GRACE_MS: int({
    group: "Multipart uploads",
    min: 1000,
    default: 15 * 60_000,
    description: "Age at which the sweeper removes stored objects and store uploads no row points at, ms.",
  }),

  // Upload policy of public keys that carry none (all unset: no restriction)
  TROVE_PUBLIC_KEY_MAX_FILE_SIZE: bytes({
    group: "Upload policy of public keys",
    description: "Largest file (kB/MB/GB are powers of 1000, KiB/MiB/GiB of 1024).",
  }),
  TROVE_PUBLIC_KEY_ALLOWED_TYPES: text({
    group: "Upload policy of public keys",
    accepts: "comma-separated types: `image/*,video/mp4`",
    description: "Types allowed, judged on the sniffed content.",
  }),
  TROVE_PUBLIC_KEY_FOLDER: text({
    group: "Upload policy of public keys",
    description: "Folder uploads must land in.",
  }),
  TROVE_PUBLIC_KEY_FOLDER_MATCH: choice(["exact", "prefix"], {
    group: "Upload policy of public keys",
    trim: true,
    defaultText: "`exact`",
    description: "How `TROVE_PUBLIC_KEY_FOLDER` is matched.",
  }),
  TROVE_PUBLIC_KEY_ALLOW_REMOTE: flag({
    group: "Upload policy of public keys",
    defaultText: "allowed",
    description: "false refuses remote-URL uploads.",
  }),
  TROVE_PUBLIC_KEY_ALLOW_MULTIPART: flag({
    group: "Upload policy of public keys",
    defaultText: "allowed",
    description: "false refuses multipart uploads.",
  }),
  TROVE_PUBLIC_KEY_ALLOW_TRANSFORMS: flag({
    group: "Upload policy of public keys",
    defaultText: "allowed",
    description: "false refuses store-time transforms.",
  }),

  // Image work (src/media/media-limits.ts)
  TROVE_MAX_INPUT_PIXELS: int({
    group: "Image work",
    min: 1,
    default: 100_000_000,
    description: "Largest input image, width × height as its header declares, checked before decoding.",
  }),
  TROVE_MAX_OUTPUT_PIXELS: int({
    group: "Image work",
    min: 1,
    default: 40_000_000,
    description: "Largest image the pipeline produces, intermediate or final.",
  }),
  TROVE_MAX_UPSCALE_PIXELS: int({
    group: "Image work",
    min: 1,
    // 4096²: room for a retina rendition of anything a 5K screen shows, while 6000² is refused.
    default: 16_777_216,
    defaultText: "`16777216` (4096²)",
    description:
      "Largest image made with more pixels than its source: an upscale, a pad, a rotated canvas (below).",
  }),
  TROVE_MEDIA_TIMEOUT_SECONDS: int({
    group: "Image work",
    min: 1,
    default: 30,
    description: "CPU time one image pipeline may take, seconds.",
  }),

  // Video work (src/media/video/video-config.ts)
  TROVE_FFMPEG_PATH: text({
    group: "Video work",
    defaultText: "`ffmpeg` on PATH, else the optional package `@ffmpeg-installer/linux-x64`",
    description:
      "The ffmpeg binary video transforms run; a path that is not an executable file stops startup.",
  }),
  TROVE_FFPROBE_PATH: text({
    group: "Video work",
    defaultText: "`ffprobe` on PATH, else the optional package `@ffprobe-installer/linux-x64`",
    description:
      "The ffprobe binary that reads a video before it is transformed; checked like `TROVE_FFMPEG_PATH`.",
  }),
  TROVE_VIDEO_CONCURRENCY: int({
    group: "Video work",
    min: 1,
    default: 1,
    description:
      "Video transcodes at once in this instance (each ffmpeg runs 2 threads); others wait in the job queue.",
  }),
  TROVE_VIDEO_TIMEOUT_MS: int({
    group: "Video work",
    min: 1,
    default: 300_000,
    description: "Longest one video transcode may run, ms; then ffmpeg is killed and the job fails.",
  }),
  TROVE_VIDEO_MAX_OUTPUT_BYTES: bytes({
    group: "Video work",
    default: 512 * MiB,
    description: "Largest output of one video transform; ffmpeg is killed when its file grows past it.",
  }),
  TROVE_VIDEO_MAX_DURATION_SECONDS: int({
    group: "Video work",
    min: 1,
    default: 3600,
    description: "Longest video a transform is made of, seconds; a longer one is a 400.",
  }),
  TROVE_VIDEO_MAX_PIXELS: int({
    group: "Video work",
    min: 1,
    // 3840×2160: 4K UHD, the largest frame phones and cameras record for the web.
    default: 8_294_400,
    defaultText: "`8294400` (3840×2160)",
    description: "Largest video frame, width × height, a transform is made of; a larger one is a 400.",
  }),
  TROVE_VIDEO_MAX_FRAME_RATE: int({
    group: "Video work",
    min: 1,
    default: 120,
    description: "Highest frame rate, frames per second, a transform is made of; a higher one is a 400.",
  }),

  // Delivery host (src/delivery/delivery-limits.ts)
  TROVE_RENDER_CONCURRENCY: int({
    group: "Delivery host",
    min: 1,
    defaultText: "one per CPU core",
    description: "Renders at once.",
  }),
  TROVE_RENDER_THREADS: int({
    group: "Delivery host",
    min: 1,
    defaultText: "CPU cores ÷ TROVE_RENDER_CONCURRENCY, at least 1",
    description:
      "libvips threads each image operation may use, process-wide (renders, transform uploads, placeholders).",
  }),
  TROVE_RENDER_QUEUE: int({
    group: "Delivery host",
    min: 0,
    defaultText: "8 per CPU core",
    description: "Renders waiting for a slot; beyond it, 503.",
  }),
  TROVE_RENDER_WAIT_MS: int({
    group: "Delivery host",
    min: 1,
    default: 5000,
    description: "Longest wait for a slot, ms; then 503 with Retry-After.",
  }),
  TROVE_MAX_VARIANTS_PER_FILE: int({
    group: "Delivery host",
    min: 1,
    default: 100,
    description: "Stored variants per file; the least recently used is evicted first.",
  }),
  TROVE_USAGE_FLUSH_MS: int({
    group: "Delivery host",
    min: 100,
    max: 3_600_000,
    default: 10_000,
    description:
      "How often the delivery host's per-workspace usage counters (requests, bytes served, renders) are written to the database, in one statement, ms; and at shutdown.",
  }),

  // Sources' origins (src/sources/origins/origin-settings.ts)
  TROVE_ORIGIN_CACHE_TTL_SECONDS: int({
    group: "Sources' origins",
    min: 0,
    default: 3600,
    description: "How long an original read from an origin is served before it is revalidated, seconds.",
  }),
  TROVE_ORIGIN_MAX_BYTES: bytes({
    group: "Sources' origins",
    default: 100 * MiB,
    defaultText: "`100MiB`",
    description: "Largest object read from an origin; larger is 413.",
  }),
  TROVE_ORIGIN_TIMEOUT_MS: int({
    group: "Sources' origins",
    min: 1,
    default: 15_000,
    description: "Deadline of one origin read, body included, ms; then 504.",
  }),
  TROVE_ORIGIN_CACHE_MAX_HOSTS: int({
    group: "Sources' origins",
    min: 1,
    // A site under a handful of host names fits many times over; a visitor inventing
    // subdomains of a wildcard DNS name cannot go past it.
    default: 32,
    description:
      "Hosts besides the base URL's one `image_source` keeps copies for through `canonical_header`; the least recently read host's copies are dropped first.",
  }),
  TROVE_GCS_API_ENDPOINT: url({
    group: "Sources' origins",
    defaultText: "Google's",
    description: "Google Cloud Storage's JSON API base URL.",
  }),

  // Rate limits (src/rate-limit/rate-limit-config.ts says why these defaults)
  REDIS_URL: text({
    group: "Rate limits",
    check: z.string().regex(/^rediss?:\/\//, "must be a redis:// URL"),
    accepts: "redis:// URL",
    defaultText: "in-memory limits, per instance",
    description: "Redis that instances share their rate-limit counts through.",
  }),
  TROVE_RATE_LIMIT_WINDOW_MS: rateLimit(60_000, "The window of every limit below, ms."),
  TROVE_RATE_LIMIT_MAX: rateLimit(600, "Requests per private key."),
  TROVE_RATE_LIMIT_ADDRESS_MAX: rateLimit(
    1_200,
    "`/api/` requests per client address, before authentication (part PUTs apart).",
  ),
  TROVE_RATE_LIMIT_PUBLIC_KEY_ADDRESS_MAX: rateLimit(
    120,
    "Requests per public key and client address (one visitor).",
  ),
  TROVE_RATE_LIMIT_PUBLIC_KEY_MAX: rateLimit(60_000, "Requests per public key, all visitors together."),
  TROVE_RATE_LIMIT_PART_ADDRESS_MAX: rateLimit(
    24_000,
    "Part PUTs per client address (each session also has 12,000).",
  ),
  TROVE_ASSETS_RATE_LIMIT_MAX: rateLimit(
    1_200,
    "Delivery requests (`TROVE_ASSETS_PREFIX`) per client address.",
  ),
  TROVE_TRUST_PROXY: parsed<TrustProxy, TrustProxy>("list", "a hop count or CIDRs", parseTrustProxy, {
    group: "Rate limits",
    default: false,
    defaultText: "the socket's peer is the client",
    description:
      "Proxies allowed to name the client in `X-Forwarded-For`: a hop count (`1`) or comma-separated CIDRs/addresses; `true` is refused (below).",
  }),

  // Background work
  TROVE_WORKERS: flag({
    group: "Background work",
    default: true,
    description: "Run the job runner (webhook delivery, sweeps, cleanup) in this process.",
  }),
  TROVE_WEBHOOK_MAX_ATTEMPTS: int({
    group: "Background work",
    min: 1,
    max: 100,
    default: 10,
    description: "Attempts of one webhook delivery.",
  }),
  TROVE_WEBHOOK_TIMEOUT_MS: int({
    group: "Background work",
    min: 1,
    default: 10_000,
    description: "Deadline of one webhook attempt, ms.",
  }),
  TROVE_JOB_POLL_INTERVAL_MS: int({
    group: "Background work",
    min: 10,
    default: 1000,
    description: "How often the job runner looks for work, ms.",
  }),
  TROVE_PLACEHOLDERS: flag({
    group: "Background work",
    default: true,
    description:
      "Compute each image's placeholder (ThumbHash, dominant colour, tiny WebP) in the background; the upload response carries `placeholder: null` until it is ready. Off: no new placeholders are computed.",
  }),
  TROVE_JOB_RETENTION_HOURS: int({
    group: "Background work",
    min: 1,
    max: 87_600,
    default: 168,
    description:
      "Finished jobs of every kind, webhook deliveries included, are deleted this long after they finish, hours.",
  }),
  TROVE_FILE_EXPIRY_SWEEP_INTERVAL_MS: int({
    group: "Background work",
    min: 100,
    max: 86_400_000,
    default: 60_000,
    description:
      "How often temporary files past their `expires_at` are deleted, ms. They answer 404 from their deadline on, whatever this is.",
  }),

  // Observability
  TROVE_METRICS: custom("enum", "off | on | a port number", metricsSetting, {
    group: "Observability",
    default: "off",
    description:
      "`on`: `GET /metrics` in Prometheus text on the API port; a port: a listener of its own that serves only `/metrics` (below).",
  }),
  TROVE_METRICS_HOST: text({
    group: "Observability",
    default: "127.0.0.1",
    description: "Address of the metrics listener of its own.",
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: text({
    group: "Observability",
    accepts: "URL of an OTLP/HTTP collector",
    defaultText: "no tracing",
    description: "Export traces (OTLP/HTTP, JSON) to `<endpoint>/v1/traces` (below).",
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: text({
    group: "Observability",
    accepts: "URL",
    defaultText: "`<endpoint>/v1/traces`",
    description: "The traces URL itself, instead of one made from `OTEL_EXPORTER_OTLP_ENDPOINT`.",
  }),
  OTEL_SERVICE_NAME: text({
    group: "Observability",
    default: "trove-server",
    description: "The service name of spans.",
  }),
  OTEL_SDK_DISABLED: flag({
    group: "Observability",
    spelling: "otel",
    default: false,
    description: "true keeps tracing off whatever the endpoint.",
  }),
} satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof SETTINGS;
/** The parsed value of each setting. */
export type SettingValues = { [K in SettingName]: (typeof SETTINGS)[K] extends Setting<infer T> ? T : never };
