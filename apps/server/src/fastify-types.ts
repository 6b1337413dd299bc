/**
 * Fastify type augmentation: what plugins decorate and what route `config` understands. Every
 * `declare module "fastify"` of the server is here, so one file lists what `app` carries.
 *
 *   app.db        PrismaClient (src/plugins/db.ts)        app.dbKind   "pglite" | "postgres"
 *   app.database  Database (ping, migrate, close)          app.config   ServerConfig
 *   app.storage   StorageDriver (src/storage/driver.ts)
 *   app.renderGate RenderGate (src/delivery/render-gate.ts): admits delivery renders and transform uploads
 *   app.deliveryUrl(workspaceNo, path)  a file's public URL (src/delivery/delivery-url.ts)
 *   app.seedResult what development seeding did at start (src/keys/seed.ts)
 *   app.jobRunner  JobRunner or null (src/jobs/start-workers.ts)
 *   app.metrics    TroveMetrics or null when TROVE_METRICS is off; app.metricsServer its own
 *                  listener or null (src/metrics/metrics-plugin.ts)
 *   app.activeKeys the API-key cache (src/keys/active-key-cache.ts); the admin API drops what it revokes
 *   request.auth  AuthContext, set by the auth hook on every route whose `config.auth` is "any" or
 *                 "private" (default "private" for /api/* routes, "none" elsewhere).
 *
 * Route config:
 *   { config: { auth: "any" } }                   public or private key (uploads, multipart)
 *   { config: { auth: "private" } }               private key only (default under /api/)
 *   { config: { auth: "none" } }                  no key (delivery, health, part gateway)
 *   { config: { auth: "admin" } }                 the admin token only (admin API, /admin/v1)
 *   { config: { errorGroup: "files" } }           envelope group override (default: by path)
 *   { config: { errorVariant: "folder-create" } } 400 as { success: false, error }
 *   { config: { drainUnreadBodyUpTo: n } }        bytes of a refused body read to keep the connection (src/plugins/unread-body.ts)
 *   { config: { acceptsSpentUploadToken: true } } an upload token that created all its files still authenticates (multipart complete)
 *   API endpoints get `auth`, `operationId` and `invalidRequest` from src/routes/endpoint-route.ts.
 */
import type { Server } from "node:http";
import type { EndpointOperationId, ErrorVariant, ResponseGroup } from "@trove/schema";
import type { ServerConfig } from "./config.js";
import type { Database, DbKind } from "./db/database.js";
import type { RenderGate } from "./delivery/render-gate.js";
import type { PrismaClient } from "./generated/prisma/client.js";
import type { JobRunner } from "./jobs/job-runner.js";
import type { ActiveKeyCache } from "./keys/active-key-cache.js";
import type { SeedResult } from "./keys/seed.js";
import type { TroveMetrics } from "./metrics/trove-metrics.js";
import type { AuthContext, AuthMode } from "./plugins/auth.js";
import type { InvalidRequestMapper } from "./routes/endpoint-route.js";
import type { StorageDriver } from "./storage/driver.js";

declare module "fastify" {
  interface FastifyInstance {
    db: PrismaClient;
    dbKind: DbKind;
    database: Database;
    config: ServerConfig;
    storage: StorageDriver;
    renderGate: RenderGate;
    /** `${assetsUrl}/${workspace_no}/${path}` with each segment percent-encoded (src/delivery/delivery-url.ts). */
    deliveryUrl(workspaceNo: string, path: string): string;
    /** What development seeding did at start (keys created now are shown once by the CLI). */
    seedResult: SeedResult | undefined;
    /** The API-key cache of this instance (src/keys/active-key-cache.ts). */
    activeKeys: ActiveKeyCache;
    /** The background job runner of this instance, or null when `config.workers` is off. */
    jobRunner: JobRunner | null;
    /** This instance's metrics, or null when they are off (src/metrics/metrics-plugin.ts). */
    metrics: TroveMetrics | null;
    /** The listener of `TROVE_METRICS=<port>`, else null. */
    metricsServer: Server | null;
  }
  interface FastifyRequest {
    /** Set on authenticated routes (see src/plugins/auth.ts); null on `auth: "none"` routes. */
    auth: AuthContext;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
    errorGroup?: ResponseGroup;
    errorVariant?: ErrorVariant;
    drainUnreadBodyUpTo?: number;
    acceptsSpentUploadToken?: boolean;
    /** The registry endpoint this route serves (src/routes/endpoint-route.ts). */
    operationId?: EndpointOperationId;
    /** The error for a request that fails its endpoint's schemas, where the spec fixes the body. */
    invalidRequest?: InvalidRequestMapper;
  }
}
