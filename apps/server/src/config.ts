/**
 * Server configuration.
 *
 * - `loadConfig(env)` reads and validates the environment (zod) and resolves derived defaults;
 *   it is what the `trove-server` CLI (src/cli.ts) uses. It may create the data directory and,
 *   in development, the persisted secret key file (`<data dir>/secret.key`).
 * - `buildApp()` takes an already-resolved `ServerConfig`, so tests never touch process.env
 *   (see `test/support/create-test-app.ts`, which builds one with `resolveConfig`).
 *
 * Environment variables:
 *   PORT (3000), HOST (127.0.0.1), DATABASE_URL (unset: embedded PGlite in TROVE_DATA_DIR/pgdata),
 *   TROVE_DATABASE_PREPARED_STATEMENTS (PostgreSQL: prepare the hot list and upload statements once
 *   per connection; default true; false behind PgBouncer older than 1.21 in transaction mode),
 *   TROVE_DATA_DIR (./.trove), TROVE_STORAGE_DIR (<data dir>/storage),
 *   TROVE_PUBLIC_URL (http://HOST:PORT), TROVE_ASSETS_URL (<public url>/assets),
 *   TROVE_ASSETS_PREFIX (/assets: path on this server that serves stored files),
 *   TROVE_SECRET_KEY (32 bytes as 64 hex chars or base64; unset: generated once into the data dir),
 *   TROVE_URL_SIGNING_KEY, TROVE_URL_SIGNING_KEY_PREVIOUS (keys of private files' signed URLs, same
 *   format; unset: derived from the secret key; src/signing/url-signing-keys.ts), TROVE_SIGNED_URL_TTL_SECONDS
 *   (lifetime of the signed url in a private file's upload response, 3600),
 *   TROVE_UPLOAD_RESPONSE (wrapped: direct and remote upload answer `{ success: true, data }`;
 *   flat: the bare record, for clients written against it),
 *   REDIS_URL (unset: in-memory rate limits), TROVE_BODY_LIMIT (JSON body limit in bytes, 1 MiB),
 *   TROVE_KEY_CACHE_MS (longest an API-key lookup is reused, so the longest a key revoked elsewhere
 *   still works here; 0 to 1000, 1000; src/keys/active-key-cache.ts),
 *   TROVE_DEV_PUBLIC_KEY (trove_pk_…), TROVE_DEV_PRIVATE_KEY, TROVE_DEV_PRIVATE_KEY_2 (trove_sk_…), TROVE_SEED_DEV (seed a dev workspace when none exists; default on for the
 *   embedded database, off with DATABASE_URL unless dev keys are given), LOG_LEVEL (info).
 * Uploads and background work:
 *   TROVE_MAX_UPLOAD_BYTES (largest direct or remote upload, 100 MiB), TROVE_TRUSTED_RANGES (private
 *   CIDR ranges remote-URL fetches and webhooks may reach anyway, e.g. "127.0.0.0/8,::1/128"; unset:
 *   none), TROVE_REMOTE_FETCH_TIMEOUT_MS (60000), TROVE_MAX_INPUT_PIXELS (100000000),
 *   TROVE_MAX_OUTPUT_PIXELS (40000000), TROVE_MEDIA_TIMEOUT_SECONDS (30), TROVE_WEBHOOK_MAX_ATTEMPTS (10),
 *   TROVE_WEBHOOK_TIMEOUT_MS (10000), TROVE_WORKERS (run the job runner in this process; default true),
 *   TROVE_JOB_POLL_INTERVAL_MS (1000), TROVE_JOB_RETENTION_HOURS (finished jobs of every kind are
 *   deleted this long after they finished, 168).
 *   TROVE_MAX_UPSCALE_PIXELS (largest image the media pipeline makes that has more pixels than its
 *   source: upscales, pads, rotated canvases; 16777216 = 4096²).
 * Delivery host (src/delivery/delivery-limits.ts):
 *   TROVE_RENDER_CONCURRENCY (renders at once; one per CPU core), TROVE_RENDER_QUEUE (renders waiting
 *   for a slot, 8 per core; beyond: 503), TROVE_RENDER_WAIT_MS (longest wait for a slot, 5000; then
 *   503 with Retry-After), TROVE_MAX_VARIANTS_PER_FILE (stored variants per file, least recently used
 *   evicted first, 100).
 * Sources' origins (src/sources/origins/origin-settings.ts):
 *   TROVE_ORIGIN_CACHE_TTL_SECONDS (how long an original read from an origin is served before it is
 *   revalidated, 3600), TROVE_ORIGIN_MAX_BYTES (largest object read from an origin, 100MiB),
 *   TROVE_ORIGIN_TIMEOUT_MS (deadline of one origin read, body included, 15000),
 *   TROVE_ORIGIN_CACHE_MAX_HOSTS (hosts besides the base URL's one source keeps copies for, least
 *   recently read dropped first, 32), TROVE_GCS_API_ENDPOINT (Google Cloud Storage JSON API base
 *   URL; unset: Google's).
 * Rate limits (src/rate-limit/rate-limit-config.ts says why these defaults), each per window:
 *   TROVE_RATE_LIMIT_MAX (600 per private key), TROVE_RATE_LIMIT_WINDOW_MS (60000, every limit's window),
 *   TROVE_RATE_LIMIT_ADDRESS_MAX (1200 /api/ requests per client address, before authentication),
 *   TROVE_RATE_LIMIT_PUBLIC_KEY_MAX (60000 per public key), TROVE_RATE_LIMIT_PUBLIC_KEY_ADDRESS_MAX (120 per
 *   public key and address), TROVE_RATE_LIMIT_PART_ADDRESS_MAX (24000 part PUTs per address),
 *   TROVE_ASSETS_RATE_LIMIT_MAX (1200 delivery requests per address), TROVE_TRUST_PROXY (unset: the
 *   socket peer is the client; a hop count or comma-separated proxy CIDRs, see src/network/trust-proxy.ts).
 * Storage and multipart uploads:
 *   TROVE_STORAGE (fs | s3; fs), for s3: TROVE_S3_ENDPOINT, TROVE_S3_BUCKET, TROVE_S3_ACCESS_KEY,
 *   TROVE_S3_SECRET_KEY (required), TROVE_S3_REGION (us-east-1), TROVE_S3_PUBLIC_ENDPOINT (URL clients
 *   use for presigned part URLs), TROVE_S3_PATH_STYLE (true); see src/storage/s3-driver.ts.
 *   TROVE_MULTIPART_MODE (gateway | direct; gateway. direct needs TROVE_STORAGE=s3),
 *   TROVE_GATEWAY_URL (base URL of the part gateway in part URLs; unset: TROVE_PUBLIC_URL),
 *   TROVE_MULTIPART_TTL_SECONDS (session and part-URL lifetime when the client sends no ttl_seconds,
 *   3600), TROVE_MAX_MULTIPART_BYTES (largest multipart upload, 10 GiB),
 *   TROVE_MULTIPART_SWEEP_INTERVAL_MS (how often expired sessions are swept, 300000),
 *   TROVE_ORPHAN_GRACE_MS (age at which the sweeper removes stored objects and store uploads no row
 *   points at, 900000).
 * Administration (src/admin/): TROVE_ADMIN_TOKEN (at least 32 characters; unset: the admin API under
 *   /admin/v1 is off and answers 404; sent as `Authorization: Bearer <token>`).
 * Upload policy of public keys without one of their own (src/uploads/public-key-policy-config.ts;
 * all unset: no restriction): TROVE_PUBLIC_KEY_MAX_FILE_SIZE (20MB, 1GiB, bytes),
 *   TROVE_PUBLIC_KEY_ALLOWED_TYPES (image/*,video/mp4), TROVE_PUBLIC_KEY_FOLDER,
 *   TROVE_PUBLIC_KEY_FOLDER_MATCH (exact | prefix), TROVE_PUBLIC_KEY_ALLOW_REMOTE,
 *   TROVE_PUBLIC_KEY_ALLOW_MULTIPART, TROVE_PUBLIC_KEY_ALLOW_TRANSFORMS (true | false).
 * Observability (src/metrics/metrics-config.ts, src/tracing/start-tracing.ts):
 *   TROVE_METRICS (off | on: GET /metrics on the API port | a port number: a listener of its own),
 *   TROVE_METRICS_HOST (that listener's address, 127.0.0.1). Traces: OTEL_EXPORTER_OTLP_ENDPOINT and
 *   the other standard OTEL_* variables, read by the OpenTelemetry SDK (unset: no tracing).
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { UploadPolicy } from "@trove/schema";
import { z } from "zod";
import { parseByteSize } from "./byte-size.js";
import { type DeliveryLimits, resolveDeliveryLimits } from "./delivery/delivery-limits.js";
import { devKeyEnv } from "./keys/dev-key-env.js";
import { DEFAULT_MEDIA_LIMITS, type MediaLimits, resolveMediaLimits } from "./media/media-limits.js";
import { type MetricsConfig, metricsEnvSchema, resolveMetricsConfig } from "./metrics/metrics-config.js";
import { type MultipartConfig, resolveMultipartConfig } from "./multipart/multipart-config.js";
import type { Connector, LookupAll } from "./network/guarded-connector.js";
import { parseTrustProxy, type TrustProxy } from "./network/trust-proxy.js";
import { parseTrustedRanges, type TrustedRanges } from "./network/trusted-ranges.js";
import {
  DEFAULT_RATE_LIMITS,
  type RateLimitConfig,
  resolveRateLimitConfig,
} from "./rate-limit/rate-limit-config.js";
import { MAX_SIGNED_URL_TTL_SECONDS } from "./signing/delivery-signature.js";
import { type UrlSigningKeys, urlSigningKeys } from "./signing/url-signing-keys.js";
import { type OriginSettings, resolveOriginSettings } from "./sources/origins/origin-settings.js";
import { parseS3Endpoint, type S3StorageConfig } from "./storage/s3-driver.js";
import { publicKeyPolicyEnvSchema, resolvePublicKeyPolicy } from "./uploads/public-key-policy-config.js";

export type DatabaseConfig =
  /**
   * Embedded PGlite; `dataDir: null` keeps it in memory (tests). `loadDataDir` starts from a
   * dump made by `PGlite.dumpDataDir()` (tests clone one migrated database instead of running
   * initdb and the migrations for every app).
   */
  | { kind: "pglite"; dataDir: string | null; loadDataDir?: Blob }
  | {
      kind: "postgres";
      url: string;
      /** Prepare the hot direct statements (default true); false behind a pooler that cannot. */
      preparedStatements?: boolean;
    };

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/** TROVE_UPLOAD_RESPONSE: the success body of direct and remote upload. */
export const UPLOAD_RESPONSE_FORMS = ["wrapped", "flat"] as const;
export type UploadResponseForm = (typeof UPLOAD_RESPONSE_FORMS)[number];

export interface ServerConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  /** Root of the embedded database, storage and secret key file. */
  dataDir: string;
  storageDir: string;
  /** Storage driver: `fs` (storageDir) or `s3` (the `s3` settings). */
  storageKind: "fs" | "s3";
  /** S3 settings when `storageKind` is "s3". */
  s3: S3StorageConfig | undefined;
  /** Multipart uploads: part mode, gateway URL, session TTL, size cap, sweeper interval. */
  multipart: MultipartConfig;
  /** Base URL the API advertises (no trailing slash). */
  publicUrl: string;
  /** Base URL of delivery links (no trailing slash): `${assetsUrl}/${workspace_no}/${path}`. */
  assetsUrl: string;
  /** Path prefix on this server that serves stored files (`/assets`). */
  assetsPrefix: string;
  /** 32-byte key: encrypts source secrets, signs part URLs. */
  secretKey: Buffer;
  /** Keys of signed delivery URLs (private files): derived from `secretKey` unless set. */
  urlSigning: UrlSigningKeys;
  /** Lifetime of the signed `url` in a private file's upload response, seconds. */
  signedUrlTtlSeconds: number;
  /** The success body of direct and remote upload: `{ success, data }` (default) or the flat record. */
  uploadResponse: UploadResponseForm;
  redisUrl: string | undefined;
  /** Limits per key, per address, per visitor of a public key, per part session (rate-limit-config.ts). */
  rateLimit: RateLimitConfig;
  /** Fastify's `trustProxy`: which peers may name the client address (src/network/trust-proxy.ts). */
  trustProxy: TrustProxy;
  /** Maximum JSON/urlencoded body in bytes (multipart uploads set their own limits). */
  bodyLimit: number;
  /** Longest an API-key lookup is reused (src/keys/active-key-cache.ts); 0: every request looks up. */
  keyCacheMs: number;
  /** The admin API's bearer token (src/admin/admin-token.ts); undefined: the admin API is off. */
  adminToken: string | undefined;
  devKeys: { publicKey?: string; privateKey?: string; privateKey2?: string };
  /** Create a development workspace and keys when none exists. */
  seedDev: boolean;
  logLevel: LogLevel;
  /** Largest direct or remote-URL upload, bytes. */
  maxUploadBytes: number;
  /** Private ranges that remote-URL fetches and webhook deliveries may reach anyway. */
  trustedRanges: TrustedRanges;
  /** Deadline of a remote-URL fetch, body included, ms. */
  remoteFetchTimeoutMs: number;
  /** Pixel, time and byte limits of the media pipeline (src/media/media-limits.ts). */
  mediaLimits: MediaLimits;
  webhooks: { maxAttempts: number; timeoutMs: number };
  /** Run background workers (webhook delivery, object cleanup) in this process. */
  workers: boolean;
  jobPollIntervalMs: number;
  /** Age after which succeeded and failed jobs are deleted, ms (TROVE_JOB_RETENTION_HOURS). */
  jobRetentionMs: number;
  /** Render admission and the per-file variant cap of the delivery host. */
  delivery: DeliveryLimits;
  /** Reading from sources' origins: cache TTL, size limit, deadline, GCS endpoint. */
  origins: OriginSettings;
  /** Tests only (never from the environment): resolver and connector for outbound requests. */
  outbound?: { lookup?: LookupAll; connect?: Connector } | undefined;
  /** Upload policy of public keys that carry none (TROVE_PUBLIC_KEY_*); undefined: no restriction. */
  publicKeyPolicy?: UploadPolicy | undefined;
  /** Where `/metrics` is served (TROVE_METRICS); off by default. */
  metrics: MetricsConfig;
}

const trimSlash = (value: string) => value.replace(/(?<!\/)\/+$/, "");
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));
const url = z.url({ protocol: /^https?$/ });
const limit = z.coerce.number().int().min(1);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
  ),
  TROVE_DATA_DIR: z.string().min(1).default("./.trove"),
  TROVE_STORAGE_DIR: optionalString,
  TROVE_PUBLIC_URL: optionalString.pipe(url.optional()),
  TROVE_ASSETS_URL: optionalString.pipe(url.optional()),
  TROVE_ASSETS_PREFIX: z
    .string()
    .regex(/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/, "must look like /assets")
    .default("/assets"),
  TROVE_SECRET_KEY: optionalString,
  TROVE_URL_SIGNING_KEY: optionalString,
  TROVE_URL_SIGNING_KEY_PREVIOUS: optionalString,
  TROVE_SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(1).max(MAX_SIGNED_URL_TTL_SECONDS).optional(),
  TROVE_UPLOAD_RESPONSE: z.enum(UPLOAD_RESPONSE_FORMS).optional(),
  REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, "must be a redis:// URL")
      .optional(),
  ),
  TROVE_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(600),
  TROVE_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1).default(60_000),
  TROVE_RATE_LIMIT_ADDRESS_MAX: limit.default(DEFAULT_RATE_LIMITS.addressMax),
  TROVE_RATE_LIMIT_PUBLIC_KEY_MAX: limit.default(DEFAULT_RATE_LIMITS.publicKeyMax),
  TROVE_RATE_LIMIT_PUBLIC_KEY_ADDRESS_MAX: limit.default(DEFAULT_RATE_LIMITS.publicKeyAddressMax),
  TROVE_RATE_LIMIT_PART_ADDRESS_MAX: limit.default(DEFAULT_RATE_LIMITS.partAddressMax),
  TROVE_ASSETS_RATE_LIMIT_MAX: limit.default(DEFAULT_RATE_LIMITS.assetsMax),
  TROVE_TRUST_PROXY: optionalString,
  TROVE_BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  TROVE_KEY_CACHE_MS: z.coerce.number().int().min(0).max(1000).default(1000),
  TROVE_ADMIN_TOKEN: optionalString.pipe(
    z.string().min(32, "must be at least 32 characters (e.g. openssl rand -hex 32)").max(512).optional(),
  ),
  ...publicKeyPolicyEnvSchema,
  ...metricsEnvSchema,
  TROVE_DEV_PUBLIC_KEY: devKeyEnv("public"),
  TROVE_DEV_PRIVATE_KEY: devKeyEnv("private"),
  TROVE_DEV_PRIVATE_KEY_2: devKeyEnv("private"),
  TROVE_SEED_DEV: optionalString.pipe(z.enum(["true", "false", "1", "0"]).optional()),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TROVE_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(100 * 1024 * 1024),
  TROVE_TRUSTED_RANGES: optionalString,
  TROVE_REMOTE_FETCH_TIMEOUT_MS: z.coerce.number().int().min(1).default(60_000),
  TROVE_MAX_INPUT_PIXELS: z.coerce.number().int().min(1).default(DEFAULT_MEDIA_LIMITS.maxInputPixels),
  TROVE_MAX_OUTPUT_PIXELS: z.coerce.number().int().min(1).default(DEFAULT_MEDIA_LIMITS.maxOutputPixels),
  TROVE_MAX_UPSCALE_PIXELS: z.coerce.number().int().min(1).default(DEFAULT_MEDIA_LIMITS.maxUpscalePixels),
  TROVE_MEDIA_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(DEFAULT_MEDIA_LIMITS.timeoutSeconds),
  TROVE_WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  TROVE_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  TROVE_WORKERS: optionalString.pipe(z.enum(["true", "false", "1", "0"]).optional()),
  TROVE_DATABASE_PREPARED_STATEMENTS: optionalString.pipe(z.enum(["true", "false", "1", "0"]).optional()),
  TROVE_JOB_POLL_INTERVAL_MS: z.coerce.number().int().min(10).default(1000),
  TROVE_JOB_RETENTION_HOURS: z.coerce.number().int().min(1).max(87_600).default(168),
  TROVE_RENDER_CONCURRENCY: z.coerce.number().int().min(1).optional(),
  TROVE_RENDER_QUEUE: z.coerce.number().int().min(0).optional(),
  TROVE_RENDER_WAIT_MS: z.coerce.number().int().min(1).optional(),
  TROVE_MAX_VARIANTS_PER_FILE: z.coerce.number().int().min(1).optional(),
  TROVE_ORIGIN_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).optional(),
  TROVE_ORIGIN_MAX_BYTES: optionalString.transform((value, ctx) => {
    if (value === undefined) return undefined;
    try {
      return parseByteSize(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  }),
  TROVE_ORIGIN_TIMEOUT_MS: z.coerce.number().int().min(1).optional(),
  TROVE_ORIGIN_CACHE_MAX_HOSTS: z.coerce.number().int().min(1).optional(),
  TROVE_GCS_API_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  TROVE_STORAGE: z.enum(["fs", "s3"]).default("fs"),
  TROVE_S3_ENDPOINT: optionalString,
  TROVE_S3_REGION: z.string().min(1).default("us-east-1"),
  TROVE_S3_BUCKET: optionalString,
  TROVE_S3_ACCESS_KEY: optionalString,
  TROVE_S3_SECRET_KEY: optionalString,
  TROVE_S3_PUBLIC_ENDPOINT: optionalString,
  TROVE_S3_PATH_STYLE: optionalString.pipe(z.enum(["true", "false", "1", "0"]).optional()),
  TROVE_MULTIPART_MODE: z.enum(["gateway", "direct"]).default("gateway"),
  TROVE_GATEWAY_URL: optionalString.pipe(url.optional()),
  TROVE_MULTIPART_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3600)
    .default(3600),
  TROVE_MAX_MULTIPART_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(10 * 1024 ** 3),
  TROVE_MULTIPART_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1000).default(300_000),
  TROVE_ORPHAN_GRACE_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(15 * 60_000),
});

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses a 32-byte key given as 64 hex characters or base64/base64url. */
export function parseSecretKey(value: string, variable = "TROVE_SECRET_KEY"): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  if (key.length !== 32) {
    throw new ConfigError(`${variable} must be 32 bytes, as 64 hex characters or base64`);
  }
  return key;
}

/** Reads `<dataDir>/secret.key`, creating it (mode 0600) on first use. Development convenience. */
export function loadOrCreateSecretKey(dataDir: string): Buffer {
  const file = join(dataDir, "secret.key");
  if (existsSync(file)) return parseSecretKey(readFileSync(file, "utf8").trim());
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return key;
}

function formatIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "env"}: ${issue.message}`).join("; ");
}

/** The S3 driver settings from TROVE_S3_*; throws ConfigError naming what is missing. */
function s3ConfigFrom(e: z.infer<typeof envSchema>): S3StorageConfig {
  const missing = (
    ["TROVE_S3_ENDPOINT", "TROVE_S3_BUCKET", "TROVE_S3_ACCESS_KEY", "TROVE_S3_SECRET_KEY"] as const
  ).filter((name) => !e[name]);
  if (missing.length > 0) {
    throw new ConfigError(`Invalid environment: TROVE_STORAGE=s3 needs ${missing.join(", ")}`);
  }
  let endpoint: ReturnType<typeof parseS3Endpoint>;
  try {
    endpoint = parseS3Endpoint(e.TROVE_S3_ENDPOINT as string);
    if (e.TROVE_S3_PUBLIC_ENDPOINT) parseS3Endpoint(e.TROVE_S3_PUBLIC_ENDPOINT);
  } catch (error) {
    throw new ConfigError(`Invalid environment: ${(error as Error).message}`);
  }
  return {
    ...endpoint,
    region: e.TROVE_S3_REGION,
    bucket: e.TROVE_S3_BUCKET as string,
    accessKey: e.TROVE_S3_ACCESS_KEY as string,
    secretKey: e.TROVE_S3_SECRET_KEY as string,
    pathStyle:
      e.TROVE_S3_PATH_STYLE === undefined ||
      e.TROVE_S3_PATH_STYLE === "true" ||
      e.TROVE_S3_PATH_STYLE === "1",
    ...(e.TROVE_S3_PUBLIC_ENDPOINT ? { publicEndpoint: e.TROVE_S3_PUBLIC_ENDPOINT } : {}),
  };
}

/** Reads the environment into a `ServerConfig`. Throws `ConfigError` naming every invalid variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(`Invalid environment: ${formatIssues(parsed.error)}`);
  const e = parsed.data;
  const dataDir = resolve(e.TROVE_DATA_DIR);
  const database: DatabaseConfig = e.DATABASE_URL
    ? {
        kind: "postgres",
        url: e.DATABASE_URL,
        preparedStatements: !["false", "0"].includes(e.TROVE_DATABASE_PREPARED_STATEMENTS ?? "true"),
      }
    : { kind: "pglite", dataDir: join(dataDir, "pgdata") };
  const devKeys = {
    publicKey: e.TROVE_DEV_PUBLIC_KEY,
    privateKey: e.TROVE_DEV_PRIVATE_KEY,
    privateKey2: e.TROVE_DEV_PRIVATE_KEY_2,
  };
  const anyDevKey = Boolean(devKeys.publicKey || devKeys.privateKey || devKeys.privateKey2);
  const seedDev =
    e.TROVE_SEED_DEV !== undefined
      ? e.TROVE_SEED_DEV === "true" || e.TROVE_SEED_DEV === "1"
      : database.kind === "pglite" || anyDevKey;
  let trustedRanges: TrustedRanges;
  try {
    trustedRanges = parseTrustedRanges(e.TROVE_TRUSTED_RANGES);
  } catch (error) {
    throw new ConfigError(`Invalid environment: TROVE_TRUSTED_RANGES: ${(error as Error).message}`);
  }
  let trustProxy: TrustProxy;
  try {
    trustProxy = parseTrustProxy(e.TROVE_TRUST_PROXY);
  } catch (error) {
    throw new ConfigError(`Invalid environment: TROVE_TRUST_PROXY: ${(error as Error).message}`);
  }
  const s3 = e.TROVE_STORAGE === "s3" ? s3ConfigFrom(e) : undefined;
  if (e.TROVE_MULTIPART_MODE === "direct" && !s3) {
    throw new ConfigError("Invalid environment: TROVE_MULTIPART_MODE=direct needs TROVE_STORAGE=s3");
  }
  return resolveConfig({
    port: e.PORT,
    host: e.HOST,
    database,
    dataDir,
    storageDir: e.TROVE_STORAGE_DIR ? resolve(e.TROVE_STORAGE_DIR) : undefined,
    storageKind: e.TROVE_STORAGE,
    s3,
    multipart: {
      mode: e.TROVE_MULTIPART_MODE,
      gatewayUrl: e.TROVE_GATEWAY_URL,
      defaultTtlSeconds: e.TROVE_MULTIPART_TTL_SECONDS,
      maxFileBytes: e.TROVE_MAX_MULTIPART_BYTES,
      sweepIntervalMs: e.TROVE_MULTIPART_SWEEP_INTERVAL_MS,
      orphanGraceMs: e.TROVE_ORPHAN_GRACE_MS,
    },
    publicUrl: e.TROVE_PUBLIC_URL,
    assetsUrl: e.TROVE_ASSETS_URL,
    assetsPrefix: e.TROVE_ASSETS_PREFIX,
    secretKey: e.TROVE_SECRET_KEY ? parseSecretKey(e.TROVE_SECRET_KEY) : loadOrCreateSecretKey(dataDir),
    urlSigningKey: e.TROVE_URL_SIGNING_KEY
      ? parseSecretKey(e.TROVE_URL_SIGNING_KEY, "TROVE_URL_SIGNING_KEY")
      : undefined,
    urlSigningKeyPrevious: e.TROVE_URL_SIGNING_KEY_PREVIOUS
      ? parseSecretKey(e.TROVE_URL_SIGNING_KEY_PREVIOUS, "TROVE_URL_SIGNING_KEY_PREVIOUS")
      : undefined,
    signedUrlTtlSeconds: e.TROVE_SIGNED_URL_TTL_SECONDS,
    uploadResponse: e.TROVE_UPLOAD_RESPONSE,
    redisUrl: e.REDIS_URL,
    rateLimit: {
      max: e.TROVE_RATE_LIMIT_MAX,
      windowMs: e.TROVE_RATE_LIMIT_WINDOW_MS,
      addressMax: e.TROVE_RATE_LIMIT_ADDRESS_MAX,
      publicKeyMax: e.TROVE_RATE_LIMIT_PUBLIC_KEY_MAX,
      publicKeyAddressMax: e.TROVE_RATE_LIMIT_PUBLIC_KEY_ADDRESS_MAX,
      partAddressMax: e.TROVE_RATE_LIMIT_PART_ADDRESS_MAX,
      assetsMax: e.TROVE_ASSETS_RATE_LIMIT_MAX,
    },
    trustProxy,
    bodyLimit: e.TROVE_BODY_LIMIT,
    keyCacheMs: e.TROVE_KEY_CACHE_MS,
    adminToken: e.TROVE_ADMIN_TOKEN,
    devKeys,
    seedDev,
    logLevel: e.LOG_LEVEL,
    maxUploadBytes: e.TROVE_MAX_UPLOAD_BYTES,
    trustedRanges,
    remoteFetchTimeoutMs: e.TROVE_REMOTE_FETCH_TIMEOUT_MS,
    mediaLimits: resolveMediaLimits({
      maxInputPixels: e.TROVE_MAX_INPUT_PIXELS,
      maxOutputPixels: e.TROVE_MAX_OUTPUT_PIXELS,
      maxUpscalePixels: e.TROVE_MAX_UPSCALE_PIXELS,
      timeoutSeconds: e.TROVE_MEDIA_TIMEOUT_SECONDS,
    }),
    webhooks: { maxAttempts: e.TROVE_WEBHOOK_MAX_ATTEMPTS, timeoutMs: e.TROVE_WEBHOOK_TIMEOUT_MS },
    workers: e.TROVE_WORKERS === undefined ? true : e.TROVE_WORKERS === "true" || e.TROVE_WORKERS === "1",
    jobPollIntervalMs: e.TROVE_JOB_POLL_INTERVAL_MS,
    jobRetentionMs: e.TROVE_JOB_RETENTION_HOURS * 3_600_000,
    delivery: {
      renderConcurrency: e.TROVE_RENDER_CONCURRENCY,
      renderQueue: e.TROVE_RENDER_QUEUE,
      renderWaitMs: e.TROVE_RENDER_WAIT_MS,
      maxVariantsPerFile: e.TROVE_MAX_VARIANTS_PER_FILE,
    },
    origins: {
      ttlMs:
        e.TROVE_ORIGIN_CACHE_TTL_SECONDS === undefined ? undefined : e.TROVE_ORIGIN_CACHE_TTL_SECONDS * 1000,
      maxBytes: e.TROVE_ORIGIN_MAX_BYTES,
      timeoutMs: e.TROVE_ORIGIN_TIMEOUT_MS,
      maxHostsPerSource: e.TROVE_ORIGIN_CACHE_MAX_HOSTS,
      gcsApiEndpoint: e.TROVE_GCS_API_ENDPOINT,
    },
    publicKeyPolicy: publicKeyPolicyOf(e),
    metrics: resolveMetricsConfig(e),
  });
}

function publicKeyPolicyOf(e: Parameters<typeof resolvePublicKeyPolicy>[0]): UploadPolicy | undefined {
  try {
    return resolvePublicKeyPolicy(e);
  } catch (error) {
    const detail = error instanceof z.ZodError ? formatIssues(error) : (error as Error).message;
    throw new ConfigError(`Invalid environment: TROVE_PUBLIC_KEY_*: ${detail}`);
  }
}

export type ConfigInput = Partial<
  Omit<
    ServerConfig,
    | "secretKey"
    | "urlSigning"
    | "trustedRanges"
    | "mediaLimits"
    | "multipart"
    | "rateLimit"
    | "delivery"
    | "origins"
  >
> & {
  origins?: Partial<OriginSettings>;
  delivery?: Partial<Record<keyof DeliveryLimits, number | undefined>>;
  /** Unset fields keep their default (DEFAULT_RATE_LIMITS). */
  rateLimit?: Partial<RateLimitConfig>;
  multipart?: Partial<MultipartConfig>;
  secretKey?: Buffer;
  /** TROVE_URL_SIGNING_KEY and its predecessor; unset: derived from the secret key. */
  urlSigningKey?: Buffer | undefined;
  urlSigningKeyPrevious?: Buffer | undefined;
  /** Parsed ranges, or "127.0.0.0/8,::1/128" / an array of CIDRs. */
  trustedRanges?: TrustedRanges | string | readonly string[];
  mediaLimits?: Partial<MediaLimits>;
};

/** Fills the derived defaults of a partial config (used by `loadConfig` and by tests). */
export function resolveConfig(input: ConfigInput): ServerConfig {
  const port = input.port ?? 3000;
  const host = input.host ?? "127.0.0.1";
  const dataDir = resolve(input.dataDir ?? "./.trove");
  const urlHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const publicUrl = trimSlash(
    input.publicUrl ?? `http://${urlHost === "0.0.0.0" ? "127.0.0.1" : urlHost}:${port}`,
  );
  const assetsPrefix = input.assetsPrefix ?? "/assets";
  const secretKey = input.secretKey ?? randomBytes(32);
  return {
    port,
    host,
    database: input.database ?? { kind: "pglite", dataDir: join(dataDir, "pgdata") },
    dataDir,
    storageDir: input.storageDir ?? join(dataDir, "storage"),
    storageKind: input.storageKind ?? (input.s3 ? "s3" : "fs"),
    s3: input.s3,
    multipart: resolveMultipartConfig(input.multipart),
    publicUrl,
    assetsUrl: trimSlash(input.assetsUrl ?? `${publicUrl}${assetsPrefix}`),
    assetsPrefix,
    secretKey,
    urlSigning: urlSigningKeys({
      serverSecret: secretKey,
      key: input.urlSigningKey,
      previous: input.urlSigningKeyPrevious,
    }),
    signedUrlTtlSeconds: input.signedUrlTtlSeconds ?? 3600,
    uploadResponse: input.uploadResponse ?? "wrapped",
    redisUrl: input.redisUrl,
    rateLimit: resolveRateLimitConfig(input.rateLimit),
    trustProxy: input.trustProxy ?? false,
    bodyLimit: input.bodyLimit ?? 1024 * 1024,
    keyCacheMs: input.keyCacheMs ?? 1000,
    adminToken: input.adminToken,
    devKeys: input.devKeys ?? {},
    seedDev: input.seedDev ?? false,
    logLevel: input.logLevel ?? "info",
    maxUploadBytes: input.maxUploadBytes ?? 100 * 1024 * 1024,
    trustedRanges: parseTrustedRanges(input.trustedRanges),
    remoteFetchTimeoutMs: input.remoteFetchTimeoutMs ?? 60_000,
    mediaLimits: resolveMediaLimits(input.mediaLimits),
    webhooks: input.webhooks ?? { maxAttempts: 10, timeoutMs: 10_000 },
    // Off unless asked for: tests and embedders start workers explicitly; loadConfig turns them on.
    workers: input.workers ?? false,
    jobPollIntervalMs: input.jobPollIntervalMs ?? 1000,
    jobRetentionMs: input.jobRetentionMs ?? 168 * 3_600_000,
    delivery: resolveDeliveryLimits(input.delivery),
    origins: resolveOriginSettings(input.origins),
    ...(input.outbound ? { outbound: input.outbound } : {}),
    ...(input.publicKeyPolicy ? { publicKeyPolicy: input.publicKeyPolicy } : {}),
    metrics: input.metrics ?? { expose: "off" },
  };
}
