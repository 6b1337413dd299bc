/**
 * Server configuration.
 *
 * - Every setting (environment variable, kind, default, description) is declared once, in
 *   src/config/settings.ts; apps/server/README.md's table is generated from it.
 * - `loadConfig(env)` parses the environment through that declaration (src/config/read-settings.ts)
 *   and resolves derived values; it is what the `trove-server` CLI (src/cli.ts) uses, and the only
 *   code that reads the environment. It may create the data directory and, in development, the
 *   persisted secret key file (`<data dir>/secret.key`).
 * - `buildApp()` takes an already-resolved `ServerConfig`, so tests never touch process.env
 *   (see `test/support/create-test-app.ts`, which builds one with `resolveConfig`).
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { UploadPolicy } from "@trove/schema";
import { z } from "zod";
import { ConfigError } from "./config/config-error.js";
import { type Environment, formatIssues, readSettings } from "./config/read-settings.js";
import { type LOG_LEVELS, SETTINGS, type SettingValues, UPLOAD_RESPONSE_FORMS } from "./config/settings.js";
import { type ConsoleConfig, defaultConsoleDir, resolveConsoleConfig } from "./console/console-config.js";
import { type DeliveryLimits, resolveDeliveryLimits } from "./delivery/delivery-limits.js";
import { type MediaLimits, resolveMediaLimits } from "./media/media-limits.js";
import { resolveVideoConfig, type VideoConfig } from "./media/video/video-config.js";
import { type MetricsConfig, resolveMetricsConfig } from "./metrics/metrics-config.js";
import { type MultipartConfig, resolveMultipartConfig } from "./multipart/multipart-config.js";
import type { Connector, LookupAll } from "./network/guarded-connector.js";
import type { TrustProxy } from "./network/trust-proxy.js";
import { parseTrustedRanges, type TrustedRanges } from "./network/trusted-ranges.js";
import type { CorsOrigins } from "./plugins/cors-origins.js";
import { type RateLimitConfig, resolveRateLimitConfig } from "./rate-limit/rate-limit-config.js";
import { type UrlSigningKeys, urlSigningKeys } from "./signing/url-signing-keys.js";
import { type OriginSettings, resolveOriginSettings } from "./sources/origins/origin-settings.js";
import { parseS3Endpoint, type S3StorageConfig } from "./storage/s3-driver.js";
import { type TracingConfig, tracingConfigOf } from "./tracing/tracing-config.js";
import { resolvePublicKeyPolicy } from "./uploads/public-key-policy-config.js";

export { ConfigError, UPLOAD_RESPONSE_FORMS };

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

export type LogLevel = (typeof LOG_LEVELS)[number];

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
  /** TROVE_TUS_EXPIRY_SECONDS: lifetime of an unfinished tus upload (src/tus/). */
  tusExpirySeconds: number;
  /** Pixel, time and byte limits of the media pipeline (src/media/media-limits.ts). */
  mediaLimits: MediaLimits;
  /** ffmpeg/ffprobe paths, transcodes at once and the limits of a video transform (src/media/video/video-config.ts). */
  video: VideoConfig;
  webhooks: { maxAttempts: number; timeoutMs: number };
  /** Run background workers (webhook delivery, object cleanup) in this process. */
  workers: boolean;
  jobPollIntervalMs: number;
  /** Age after which succeeded and failed jobs are deleted, ms (TROVE_JOB_RETENTION_HOURS). */
  jobRetentionMs: number;
  /** How often temporary files past their deadline are deleted, ms (src/files/expire-files.ts). */
  fileExpirySweepIntervalMs: number;
  /** How often the delivery usage counters are flushed, ms (TROVE_USAGE_FLUSH_MS, src/usage/delivery-usage.ts). */
  usageFlushMs: number;
  /** Mark new raster images for a placeholder and run the sweep that computes them (src/placeholders/). */
  placeholders: boolean;
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
  /** Origins whose pages may call the server (TROVE_CORS_ORIGINS, src/plugins/cors.ts). */
  corsOrigins: CorsOrigins;
  /** Whether `/mcp` is served through the optional @trove/mcp (TROVE_MCP, src/plugins/mcp-mount.ts). */
  mcp: boolean;
  /** The web console at /console and its sessions (TROVE_CONSOLE*, src/console/console-config.ts). */
  console: ConsoleConfig;
  /** Whether spans are exported and where (OTEL_*, src/tracing/tracing-config.ts). */
  tracing: TracingConfig;
}

const trimSlash = (value: string) => value.replace(/(?<!\/)\/+$/, "");

/** Reads TROVE_TRUSTED_RANGES from an environment (unset or empty: nothing trusted). */
export function trustedRangesFromEnv(env: Environment): TrustedRanges {
  return readSettings(env, ["TROVE_TRUSTED_RANGES"]).TROVE_TRUSTED_RANGES;
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

/** The S3 driver settings from TROVE_S3_*; throws ConfigError naming what is missing. */
function s3ConfigFrom(e: SettingValues): S3StorageConfig {
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
    pathStyle: e.TROVE_S3_PATH_STYLE,
    ...(e.TROVE_S3_PUBLIC_ENDPOINT ? { publicEndpoint: e.TROVE_S3_PUBLIC_ENDPOINT } : {}),
  };
}

/**
 * Reads the environment into a `ServerConfig`. Throws `ConfigError` naming every invalid variable.
 * `process.env` is read here only when no environment is given.
 */
export function loadConfig(env: Environment = process.env): ServerConfig {
  const e = readSettings(env);
  const dataDir = resolve(e.TROVE_DATA_DIR);
  const database: DatabaseConfig = e.DATABASE_URL
    ? { kind: "postgres", url: e.DATABASE_URL, preparedStatements: e.TROVE_DATABASE_PREPARED_STATEMENTS }
    : { kind: "pglite", dataDir: join(dataDir, "pgdata") };
  const devKeys = {
    publicKey: e.TROVE_DEV_PUBLIC_KEY,
    privateKey: e.TROVE_DEV_PRIVATE_KEY,
    privateKey2: e.TROVE_DEV_PRIVATE_KEY_2,
  };
  const anyDevKey = Boolean(devKeys.publicKey || devKeys.privateKey || devKeys.privateKey2);
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
    trustProxy: e.TROVE_TRUST_PROXY,
    bodyLimit: e.TROVE_BODY_LIMIT,
    keyCacheMs: e.TROVE_KEY_CACHE_MS,
    adminToken: e.TROVE_ADMIN_TOKEN,
    devKeys,
    seedDev: e.TROVE_SEED_DEV ?? (database.kind === "pglite" || anyDevKey),
    logLevel: e.LOG_LEVEL,
    maxUploadBytes: e.TROVE_MAX_UPLOAD_BYTES,
    trustedRanges: e.TROVE_TRUSTED_RANGES,
    remoteFetchTimeoutMs: e.TROVE_REMOTE_FETCH_TIMEOUT_MS,
    tusExpirySeconds: e.TROVE_TUS_EXPIRY_SECONDS,
    mediaLimits: {
      maxInputPixels: e.TROVE_MAX_INPUT_PIXELS,
      maxOutputPixels: e.TROVE_MAX_OUTPUT_PIXELS,
      maxUpscalePixels: e.TROVE_MAX_UPSCALE_PIXELS,
      timeoutSeconds: e.TROVE_MEDIA_TIMEOUT_SECONDS,
    },
    video: {
      ffmpegPath: e.TROVE_FFMPEG_PATH,
      ffprobePath: e.TROVE_FFPROBE_PATH,
      concurrency: e.TROVE_VIDEO_CONCURRENCY,
      timeoutMs: e.TROVE_VIDEO_TIMEOUT_MS,
      maxOutputBytes: e.TROVE_VIDEO_MAX_OUTPUT_BYTES,
      maxDurationSeconds: e.TROVE_VIDEO_MAX_DURATION_SECONDS,
      maxPixels: e.TROVE_VIDEO_MAX_PIXELS,
      maxFrameRate: e.TROVE_VIDEO_MAX_FRAME_RATE,
    },
    webhooks: { maxAttempts: e.TROVE_WEBHOOK_MAX_ATTEMPTS, timeoutMs: e.TROVE_WEBHOOK_TIMEOUT_MS },
    workers: e.TROVE_WORKERS,
    jobPollIntervalMs: e.TROVE_JOB_POLL_INTERVAL_MS,
    jobRetentionMs: hoursToMs(e.TROVE_JOB_RETENTION_HOURS),
    fileExpirySweepIntervalMs: e.TROVE_FILE_EXPIRY_SWEEP_INTERVAL_MS,
    usageFlushMs: e.TROVE_USAGE_FLUSH_MS,
    placeholders: e.TROVE_PLACEHOLDERS,
    delivery: {
      renderConcurrency: e.TROVE_RENDER_CONCURRENCY,
      renderThreads: e.TROVE_RENDER_THREADS,
      renderQueue: e.TROVE_RENDER_QUEUE,
      renderWaitMs: e.TROVE_RENDER_WAIT_MS,
      maxVariantsPerFile: e.TROVE_MAX_VARIANTS_PER_FILE,
    },
    origins: {
      ttlMs: e.TROVE_ORIGIN_CACHE_TTL_SECONDS * 1000,
      maxBytes: e.TROVE_ORIGIN_MAX_BYTES,
      timeoutMs: e.TROVE_ORIGIN_TIMEOUT_MS,
      maxHostsPerSource: e.TROVE_ORIGIN_CACHE_MAX_HOSTS,
      gcsApiEndpoint: e.TROVE_GCS_API_ENDPOINT,
    },
    publicKeyPolicy: publicKeyPolicyOf(env),
    metrics: resolveMetricsConfig(e),
    corsOrigins: e.TROVE_CORS_ORIGINS,
    mcp: e.TROVE_MCP === "on",
    console: {
      enabled: e.TROVE_CONSOLE === "on",
      dir: e.TROVE_CONSOLE_DIR ?? defaultConsoleDir(),
      idleSeconds: e.TROVE_CONSOLE_IDLE_SECONDS,
    },
    tracing: tracingConfigOf(e),
  });
}

const hoursToMs = (hours: number) => hours * 3_600_000;

/** What an empty environment reads as: every setting at its default. */
const DEFAULTS_OF_SETTINGS = readSettings({});

function publicKeyPolicyOf(env: Environment): UploadPolicy | undefined {
  try {
    return resolvePublicKeyPolicy(env);
  } catch (error) {
    // A variable that does not parse was already reported, by name, by readSettings.
    if (error instanceof ConfigError) throw error;
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
    | "video"
    | "multipart"
    | "rateLimit"
    | "delivery"
    | "origins"
    | "console"
  >
> & {
  /** Unset fields keep their default (resolveConsoleConfig). */
  console?: Partial<ConsoleConfig>;
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
  video?: Partial<VideoConfig>;
};

/**
 * Fills the derived defaults of a partial config (used by `loadConfig` and by tests); every
 * default is the declared one (src/config/settings.ts), except that tests and embedders get no
 * workers and no seeding unless they ask.
 */
export function resolveConfig(input: ConfigInput): ServerConfig {
  const port = input.port ?? SETTINGS.PORT.default;
  const host = input.host ?? SETTINGS.HOST.default;
  const dataDir = resolve(input.dataDir ?? SETTINGS.TROVE_DATA_DIR.default);
  const urlHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const publicUrl = trimSlash(
    input.publicUrl ?? `http://${urlHost === "0.0.0.0" ? "127.0.0.1" : urlHost}:${port}`,
  );
  const assetsPrefix = input.assetsPrefix ?? SETTINGS.TROVE_ASSETS_PREFIX.default;
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
    signedUrlTtlSeconds: input.signedUrlTtlSeconds ?? SETTINGS.TROVE_SIGNED_URL_TTL_SECONDS.default,
    uploadResponse: input.uploadResponse ?? SETTINGS.TROVE_UPLOAD_RESPONSE.default,
    redisUrl: input.redisUrl,
    rateLimit: resolveRateLimitConfig(input.rateLimit),
    trustProxy: input.trustProxy ?? SETTINGS.TROVE_TRUST_PROXY.default,
    bodyLimit: input.bodyLimit ?? SETTINGS.TROVE_BODY_LIMIT.default,
    keyCacheMs: input.keyCacheMs ?? SETTINGS.TROVE_KEY_CACHE_MS.default,
    adminToken: input.adminToken,
    devKeys: input.devKeys ?? {},
    seedDev: input.seedDev ?? false,
    logLevel: input.logLevel ?? SETTINGS.LOG_LEVEL.default,
    maxUploadBytes: input.maxUploadBytes ?? SETTINGS.TROVE_MAX_UPLOAD_BYTES.default,
    trustedRanges: parseTrustedRanges(input.trustedRanges),
    remoteFetchTimeoutMs: input.remoteFetchTimeoutMs ?? SETTINGS.TROVE_REMOTE_FETCH_TIMEOUT_MS.default,
    tusExpirySeconds: input.tusExpirySeconds ?? SETTINGS.TROVE_TUS_EXPIRY_SECONDS.default,
    mediaLimits: resolveMediaLimits(input.mediaLimits),
    video: resolveVideoConfig(input.video),
    webhooks: input.webhooks ?? {
      maxAttempts: SETTINGS.TROVE_WEBHOOK_MAX_ATTEMPTS.default,
      timeoutMs: SETTINGS.TROVE_WEBHOOK_TIMEOUT_MS.default,
    },
    // Off unless asked for: tests and embedders start workers explicitly; loadConfig turns them on.
    workers: input.workers ?? false,
    jobPollIntervalMs: input.jobPollIntervalMs ?? SETTINGS.TROVE_JOB_POLL_INTERVAL_MS.default,
    jobRetentionMs: input.jobRetentionMs ?? hoursToMs(SETTINGS.TROVE_JOB_RETENTION_HOURS.default),
    fileExpirySweepIntervalMs:
      input.fileExpirySweepIntervalMs ?? SETTINGS.TROVE_FILE_EXPIRY_SWEEP_INTERVAL_MS.default,
    usageFlushMs: input.usageFlushMs ?? SETTINGS.TROVE_USAGE_FLUSH_MS.default,
    placeholders: input.placeholders ?? SETTINGS.TROVE_PLACEHOLDERS.default,
    delivery: resolveDeliveryLimits(input.delivery),
    origins: resolveOriginSettings(input.origins),
    ...(input.outbound ? { outbound: input.outbound } : {}),
    ...(input.publicKeyPolicy ? { publicKeyPolicy: input.publicKeyPolicy } : {}),
    metrics: input.metrics ?? resolveMetricsConfig(DEFAULTS_OF_SETTINGS),
    corsOrigins: input.corsOrigins ?? SETTINGS.TROVE_CORS_ORIGINS.default,
    mcp: input.mcp ?? SETTINGS.TROVE_MCP.default === "on",
    console: resolveConsoleConfig(input.console),
    tracing: input.tracing ?? tracingConfigOf(DEFAULTS_OF_SETTINGS),
  };
}
