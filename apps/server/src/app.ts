/**
 * `buildApp(options)`: the Fastify app, ready for `inject()` or `listen()` (only `startServer` in
 * src/server.ts, which the CLI runs, listens).
 *
 *   const app = await buildApp({ config: loadConfig() });        // opens the DB, migrates, seeds
 *   const app = await buildApp({ config, database, storage });   // tests inject their own
 *
 * Composition root: right after creating the Fastify instance, `createServices` (src/services.ts)
 * builds every service once (db, storage, render gate, delivery URLs, key cache, metrics, upload
 * and multipart deps, delivery, job runner) and buildApp decorates the app with each; plugins read
 * those decorators and hand services the narrow deps they take (see docs/ARCHITECTURE.md).
 *
 * Order: request spans (only while tracing is on, src/tracing/) -> request ids -> errors -> metrics
 * (src/metrics/metrics-plugin.ts) -> unread body -> cors -> db (closes the database) -> rate limit
 * (its per-key layer runs after auth, src/plugins/rate-limit.ts) -> console sessions (cookies;
 * what a console session's cookie stands for, src/console/) -> auth -> NUL rejection -> routes
 * (the API routes from the endpoint registry, src/routes/endpoint-route.ts; the console's pages
 * and session API while TROVE_CONSOLE is on; the admin API, src/routes/admin.ts, only with an
 * admin token). Route plugins register with
 * `app.register(plugin)`; they get the services (`app.db`, `app.storage`, `app.config`,
 * `app.uploadDeps`, ...), `request.auth` and the error envelopes for free (see src/fastify-types.ts,
 * src/plugins/auth.ts, src/errors/). Pass extra route plugins through `options.routes` or register
 * them on the returned app before `ready()`. After the routes, `workersPlugin` starts
 * `app.jobRunner` (non-null when `config.workers` is on) on ready and stops it on close
 * (src/jobs/start-workers.ts).
 */
import { buildErrorBody, errorGroupOf } from "@trove/schema";
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyReply } from "fastify";
import type { DestinationStream } from "pino";
import type { ServerConfig } from "./config.js";
import { type Database, openDatabase } from "./db/database.js";
import "./fastify-types.js";
import { consoleRoutes, consoleSessionsPlugin } from "./console/console-plugin.js";
import { isDeliveryUrl, setDeliverySecurityHeaders } from "./delivery/security-headers.js";
import { clientErrorHandler } from "./errors/client-error.js";
import { workersPlugin } from "./jobs/start-workers.js";
import { seedDevelopment } from "./keys/seed.js";
import { lazyRequestLogger, loggerOptions } from "./logging/index.js";
import { metricsPlugin } from "./metrics/metrics-plugin.js";
import { fastifyTrustProxy } from "./network/trust-proxy.js";
import { authPlugin } from "./plugins/auth.js";
import { corsPlugin } from "./plugins/cors.js";
import { dbPlugin } from "./plugins/db.js";
import { errorsPlugin } from "./plugins/errors.js";
import { mcpMountPlugin } from "./plugins/mcp-mount.js";
import { rateLimitPlugin } from "./plugins/rate-limit.js";
import { rejectNulPlugin } from "./plugins/reject-nul.js";
import { genRequestId, requestIdPlugin } from "./plugins/request-id.js";
import { unreadBodyPlugin } from "./plugins/unread-body.js";
import { adminRoutes } from "./routes/admin.js";
import { deliveryRoutes } from "./routes/delivery.js";
import { fileRoutes } from "./routes/files.js";
import { folderRoutes } from "./routes/folders.js";
import { healthRoutes } from "./routes/health.js";
import { multipartRoutes } from "./routes/multipart.js";
import { openApiRoutes } from "./routes/openapi.js";
import { partGatewayRoutes } from "./routes/part-gateway.js";
import { sourceRoutes } from "./routes/sources.js";
import { uploadRoutes } from "./routes/uploads.js";
import { usageRoutes } from "./routes/usage.js";
import { type BuiltServices, createServices } from "./services.js";
import type { StorageDriver } from "./storage/driver.js";
import { requestSpansPlugin } from "./tracing/request-spans.js";
import { tracingActive } from "./tracing/start-tracing.js";
import { tusRoutes } from "./tus/tus-routes.js";

export interface BuildAppOptions {
  config: ServerConfig;
  /** An open database; default: `openDatabase(config.database)`, closed with the app. */
  database?: Database;
  /** Whether the app closes `database` on close (default: true). */
  closeDatabase?: boolean;
  /** Default: by `config.storageKind`, `FsStorageDriver(config.storageDir)` or `S3StorageDriver(config.s3)`. */
  storage?: StorageDriver;
  /** Apply pending migrations at start (default: true). */
  migrate?: boolean;
  /** Logging: false for none, or a pino destination (tests capture output this way). */
  logger?: boolean | { stream?: DestinationStream; level?: ServerConfig["logLevel"] };
  /** Route plugins registered after the built-in ones. */
  routes?: FastifyPluginAsync[];
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const logger =
    options.logger === false
      ? false
      : loggerOptions(
          (typeof options.logger === "object" && options.logger.level) || config.logLevel,
          typeof options.logger === "object" ? options.logger.stream : undefined,
        );

  const database = options.database ?? (await openDatabase(config.database));
  const ownsDatabase = options.database ? (options.closeDatabase ?? true) : true;

  let app: FastifyInstance;
  let services: BuiltServices;
  try {
    if (options.migrate ?? true) {
      const result = await database.migrate();
      if (result.checksumMismatches.length > 0) {
        process.emitWarning(
          `Applied migrations were modified afterwards: ${result.checksumMismatches.join(", ")}`,
          "TroveMigrationWarning",
        );
      }
    }
    const seedResult = config.seedDev ? await seedDevelopment(database.prisma, config) : undefined;

    app = Fastify({
      logger,
      genReqId: genRequestId,
      childLoggerFactory: lazyRequestLogger,
      bodyLimit: config.bodyLimit,
      // Unset TROVE_TRUST_PROXY: false, so X-Forwarded-For cannot choose a client's rate-limit address.
      trustProxy: fastifyTrustProxy(config.trustProxy),
      // On close: stop accepting, drop idle keep-alive sockets, let in-flight requests finish.
      forceCloseConnections: "idle",
      return503OnClosing: true,
      routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
      clientErrorHandler,
      frameworkErrors: (error, request, reply) => {
        // Malformed URLs (bad percent-encoding) and the like: the group's 400, never a 5xx.
        const group = errorGroupOf(request.url);
        const body = buildErrorBody(group, 400, { message: error.message || "Malformed request URL" });
        // Such a request never reaches a route, so the delivery plugin's hook does not see it.
        if (isDeliveryUrl(request.url, config.assetsPrefix))
          setDeliverySecurityHeaders(reply as FastifyReply);
        (reply as FastifyReply).status(400).send(body);
      },
    });
    // The composition root (src/services.ts): every service built once, each a decorator.
    services = createServices({ config, database, storage: options.storage, log: app.log });
    for (const [name, value] of Object.entries(services.decorators)) app.decorate(name, value);
    app.decorate("seedResult", seedResult);
  } catch (error) {
    if (ownsDatabase) await database.close().catch(() => {});
    throw error;
  }

  try {
    // First, so that every later hook runs inside the request's span (src/tracing/).
    if (tracingActive()) await app.register(requestSpansPlugin);
    await app.register(requestIdPlugin);
    await app.register(errorsPlugin);
    await app.register(metricsPlugin);
    await app.register(unreadBodyPlugin);
    // Before rate limit and auth: preflights carry no key (TROVE_CORS_ORIGINS, src/plugins/cors.ts).
    await app.register(corsPlugin, { origins: config.corsOrigins });
    await app.register(dbPlugin, { database, closeOnShutdown: ownsDatabase });
    // Fresh renders' bookkeeping (variant rows, evictions) finishes before the database closes.
    app.addHook("onClose", async () => {
      await services.decorators.delivery.settled();
      // The delivery usage counted since the last flush (src/usage/delivery-usage.ts).
      await services.decorators.deliveryUsage.close();
      services.close();
    });
    await app.register(rateLimitPlugin, {
      limits: config.rateLimit,
      assetsPrefix: config.assetsPrefix,
      redisUrl: config.redisUrl,
      onRefused: (layer) => app.metrics?.rateLimitRefusals.inc({ layer }),
    });
    // Before auth: the cookie of a console session may stand for a key (src/console/).
    await app.register(consoleSessionsPlugin);
    await app.register(authPlugin);
    await app.register(rejectNulPlugin);

    await app.register(healthRoutes);
    await app.register(openApiRoutes);
    await app.register(deliveryRoutes);
    await app.register(fileRoutes);
    await app.register(folderRoutes);
    await app.register(sourceRoutes);
    await app.register(uploadRoutes);
    await app.register(multipartRoutes);
    await app.register(partGatewayRoutes);
    await app.register(tusRoutes);
    await app.register(usageRoutes);
    await app.register(consoleRoutes);
    // Off without a token: /admin/ paths are then unknown routes (404), not refusals.
    if (config.adminToken) await app.register(adminRoutes);
    if (config.mcp) await app.register(mcpMountPlugin);
    for (const routes of options.routes ?? []) await app.register(routes);
    await app.register(workersPlugin);
  } catch (error) {
    // A plugin or route failed to register: release the database before reporting it.
    await app.close().catch(() => {});
    if (ownsDatabase) await database.close().catch(() => {});
    throw error;
  }

  return app;
}
