/**
 * What the delivery host's services need, handed to them by the composition root
 * (src/services.ts); each service takes the narrow `Pick` it reads.
 */
import type { FastifyBaseLogger } from "fastify";
import type { ServerConfig } from "../config.js";
import type { RawQuery } from "../db/direct-sql.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { TroveMetrics } from "../metrics/trove-metrics.js";
import type { StorageDriver } from "../storage/driver.js";
import type { RenderGate } from "./render-gate.js";

export interface DeliveryDeps {
  db: PrismaClient;
  /** The direct path (src/db/direct-sql.ts), for the one lookup every delivery request makes. */
  sql: RawQuery;
  storage: StorageDriver;
  config: ServerConfig;
  renderGate: RenderGate;
  log: FastifyBaseLogger;
  /** Null when metrics are off. */
  metrics: TroveMetrics | null;
  /** Asks this instance's job runner to poll now (absent or a no-op when workers are off). */
  wakeJobs?: () => void;
}
