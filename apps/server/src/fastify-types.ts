/**
 * Fastify type augmentation: what `app` carries and what route `config` understands. Every
 * `declare module "fastify"` of the server is here, so one file lists what `app` carries.
 *
 * The services: built once by the composition root (src/services.ts, `Services`), decorated by
 * buildApp, read by route plugins. Nothing else decorates a service.
 *   app.db        PrismaClient (with query spans while tracing is on)   app.dbKind "pglite" | "postgres"
 *   app.database  Database (ping, migrate, close; closed by src/plugins/db.ts)   app.config ServerConfig
 *   app.storage   StorageDriver (src/storage/driver.ts)
 *   app.renderGate RenderGate (src/delivery/render-gate.ts): admits delivery renders and transform uploads
 *   app.deliveryUrl(workspaceNo, path)  a file's public URL (src/delivery/delivery-url.ts)
 *   app.uploadDeps    what registering an upload needs (src/uploads/upload-deps.ts)
 *   app.multipartDeps what the multipart service needs (src/multipart/multipart-deps.ts)
 *   app.delivery  the delivery host's services (src/delivery/create-delivery.ts)
 *   app.deliveryUsage the delivery host's per-workspace usage counters (src/usage/delivery-usage.ts)
 *   app.jobRunner  JobRunner or null when workers are off (src/jobs/start-workers.ts)
 *   app.metrics    TroveMetrics or null when TROVE_METRICS is off
 *   app.activeKeys the API-key cache (src/keys/active-key-cache.ts); the admin API drops what it revokes
 * Set by buildApp and plugins (not services):
 *   app.seedResult what development seeding did at start (src/keys/seed.ts)
 *   app.metricsServer the listener of `TROVE_METRICS=<port>` or null (src/metrics/metrics-plugin.ts)
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
import type { SeedResult } from "./keys/seed.js";
import type { AuthContext, AuthMode } from "./plugins/auth.js";
import type { InvalidRequestMapper } from "./routes/endpoint-route.js";
import type { Services } from "./services.js";

declare module "fastify" {
  /** Each member of `Services` (src/services.ts) is a decorator of the app. */
  interface FastifyInstance extends Services {
    /** What development seeding did at start (keys created now are shown once by the CLI). */
    seedResult: SeedResult | undefined;
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
