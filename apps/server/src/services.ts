/**
 * The composition root: `createServices(...)` builds every service of one server instance, once,
 * from the config, the open database, the storage driver and the logger. `buildApp` (src/app.ts)
 * calls it and decorates the app with each member (typed in src/fastify-types.ts); nothing else
 * constructs a service or decorates the app with one.
 *
 *   const services = createServices({ config, database, log: app.log });   // storage: by config
 *   for (const [name, value] of Object.entries(services.decorators)) app.decorate(name, value);
 *   app.addHook("onClose", () => services.close());
 *
 * Each service is handed the narrow deps object it reads (or the Prisma client), never the app;
 * route plugins read the decorators. Process-wide switches stay where they are: tracing
 * (src/tracing/start-tracing.ts) wraps the client and the driver here when it is on, and the
 * codec block (src/media/block-unused-codecs.ts) is sharp's own global state.
 */
import type { FastifyBaseLogger } from "fastify";
import type { ServerConfig } from "./config.js";
import type { Database } from "./db/database.js";
import { createDelivery, type Delivery } from "./delivery/create-delivery.js";
import { deliveryUrlFor } from "./delivery/delivery-url.js";
import { RenderGate } from "./delivery/render-gate.js";
import type { PrismaClient } from "./generated/prisma/client.js";
import type { JobRunner } from "./jobs/job-runner.js";
import { createJobRunner } from "./jobs/start-workers.js";
import { type ActiveKeyCache, createActiveKeyCache } from "./keys/active-key-cache.js";
import { findActiveApiKey } from "./keys/api-keys.js";
import { useLibvipsThreads } from "./media/libvips-threads.js";
import { metricsSources } from "./metrics/metrics-sources.js";
import { TroveMetrics } from "./metrics/trove-metrics.js";
import { createMultipartDeps, type MultipartDeps } from "./multipart/multipart-deps.js";
import type { StorageDriver } from "./storage/driver.js";
import { FsStorageDriver } from "./storage/fs-driver.js";
import { S3StorageDriver } from "./storage/s3-driver.js";
import { withQuerySpans } from "./tracing/query-spans.js";
import { tracingActive } from "./tracing/start-tracing.js";
import { withStorageSpans } from "./tracing/storage-spans.js";
import type { UploadDeps } from "./uploads/upload-deps.js";
import { DeliveryUsage } from "./usage/delivery-usage.js";

export interface ServicesInput {
  config: ServerConfig;
  /** Open and migrated; its owner closes it (buildApp's db plugin). */
  database: Database;
  /** Default: by `config.storageKind`; a driver built here is closed by `close()`. */
  storage?: StorageDriver | undefined;
  log: FastifyBaseLogger;
}

/** What `buildApp` decorates the app with, one decorator per member. */
export interface Services {
  config: ServerConfig;
  database: Database;
  /** The database's Prisma client (with a span per query while tracing is on). */
  db: PrismaClient;
  dbKind: Database["kind"];
  storage: StorageDriver;
  renderGate: RenderGate;
  deliveryUrl(workspaceNo: string, path: string): string;
  activeKeys: ActiveKeyCache;
  metrics: TroveMetrics | null;
  uploadDeps: UploadDeps;
  multipartDeps: MultipartDeps;
  delivery: Delivery;
  /** The delivery host's per-workspace usage counters, flushed on a timer (src/usage/delivery-usage.ts). */
  deliveryUsage: DeliveryUsage;
  jobRunner: JobRunner | null;
}

export interface BuiltServices {
  decorators: Services;
  /** Releases what the services hold open (origin readers, a storage driver built here). */
  close(): void;
}

export function createServices({ config, database, storage: given, log }: ServicesInput): BuiltServices {
  const tracing = tracingActive();
  const rawStorage = given ?? storageFromConfig(config);
  // Only a driver built here is this function's to close (an s3 driver's connections).
  const closeStorage = !given && rawStorage instanceof S3StorageDriver ? () => rawStorage.close() : () => {};
  try {
    const storage = tracing ? withStorageSpans(rawStorage) : rawStorage;
    const db = tracing ? withQuerySpans(database.prisma) : database.prisma;
    useLibvipsThreads(config.delivery.renderThreads);
    const renderGate = new RenderGate({
      concurrency: config.delivery.renderConcurrency,
      queue: config.delivery.renderQueue,
      waitMs: config.delivery.renderWaitMs,
    });
    const deliveryUrl = deliveryUrlFor(config.assetsUrl);
    const metrics =
      config.metrics.expose === "off"
        ? null
        : new TroveMetrics(metricsSources({ db, database, renderGate, log }));
    const uploadDeps: UploadDeps = {
      db,
      sql: database.sql,
      storage,
      deliveryUrl,
      config,
      mediaLimits: config.mediaLimits,
      placeholders: config.placeholders,
      maxUploadBytes: config.maxUploadBytes,
      renderGate,
      trustedRanges: config.trustedRanges,
      webhookMaxAttempts: config.webhooks.maxAttempts,
      log,
      metrics,
      video: config.video,
    };
    const multipartDeps = createMultipartDeps({ db, storage, config, upload: uploadDeps, log });
    const jobRunner = config.workers ? createJobRunner({ db, storage, config, log }) : null;
    const delivery = createDelivery({
      db,
      sql: database.sql,
      storage,
      config,
      renderGate,
      log,
      metrics,
      wakeJobs: () => jobRunner?.wake(),
    });
    const decorators: Services = {
      config,
      database,
      db,
      dbKind: database.kind,
      storage,
      renderGate,
      deliveryUrl,
      activeKeys: createActiveKeyCache((keyHash) => findActiveApiKey(db, keyHash), {
        ttlMs: config.keyCacheMs,
      }),
      metrics,
      uploadDeps,
      multipartDeps,
      delivery,
      deliveryUsage: new DeliveryUsage(database.sql, config.usageFlushMs, log),
      jobRunner,
    };
    return {
      decorators,
      close() {
        delivery.close();
        closeStorage();
      },
    };
  } catch (error) {
    closeStorage();
    throw error;
  }
}

/** The storage driver the config names. */
function storageFromConfig(config: ServerConfig): StorageDriver {
  if (config.storageKind !== "s3") return new FsStorageDriver(config.storageDir);
  if (!config.s3) throw new Error("storageKind is s3 but config.s3 is missing");
  return new S3StorageDriver(config.s3);
}
