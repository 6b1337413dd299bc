/**
 * Where the gauges read their values at scrape time: the render gate's load, the database pool,
 * and two counts from the database shared between scrapes (./shared-reading.ts). Built by the
 * composition root (src/services.ts) from the services it reads.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../db/database.js";
import type { RenderGate } from "../delivery/render-gate.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import { sharedReading } from "./shared-reading.js";
import type { MetricsSources } from "./trove-metrics.js";

/** Job states worth a gauge: succeeded ones only pile up until retention removes them. */
const JOB_STATES_SHOWN = ["pending", "running", "failed"] as const;

/** How long scrapes share one reading of the database gauges (./shared-reading.ts). */
export const DATABASE_GAUGES_TTL_MS = 5_000;

export interface MetricsSourceDeps {
  db: PrismaClient;
  database: Pick<Database, "poolStats">;
  renderGate: Pick<RenderGate, "load">;
  log: Pick<FastifyBaseLogger, "warn">;
}

export function metricsSources({ db, database, renderGate, log }: MetricsSourceDeps): MetricsSources {
  return {
    renderLoad: () => renderGate.load,
    dbPool: () => database.poolStats?.(),
    openMultipartSessions: sharedReading(
      () => db.multipartSession.count({ where: { status: { in: ["pending", "completing"] } } }),
      DATABASE_GAUGES_TTL_MS,
    ),
    jobCounts: sharedReading(async () => {
      const groups = await db.job.groupBy({
        by: ["kind", "status"],
        where: { status: { in: [...JOB_STATES_SHOWN] } },
        _count: { _all: true },
      });
      return groups.map((group) => ({ kind: group.kind, status: group.status, count: group._count._all }));
    }, DATABASE_GAUGES_TTL_MS),
    onSourceError: (error) => log.warn({ err: error }, "metrics: a gauge could not be read"),
  };
}
