/**
 * What the delivery host served each workspace, counted in memory and written in one batched
 * upsert into `usage_days` every TROVE_USAGE_FLUSH_MS and at shutdown: a delivery request adds to
 * a counter and never waits on, or adds, a database write. Counters are keyed by the URL's
 * workspace_no, resolved to the workspace in the upsert itself (a deleted workspace's counts are
 * dropped there). Only answered requests (status below 400) are counted, so a flood of made-up
 * URLs adds no key. A flush that fails puts its counts back for the next one.
 *
 *   usage.served(workspaceNo, bytes, rendered)   // from the delivery routes' onResponse
 *   await usage.flush()                          // the timer's job; tests call it
 *   await usage.close()                          // stops the timer, writes what is left
 *
 * Prometheus sees instance totals only, through the existing delivery metrics (requests by
 * route, trove_delivered_bytes_total, trove_renders_total): no label names a workspace.
 */
import type { FastifyBaseLogger } from "fastify";
import type { RawQuery } from "../db/direct-sql.js";

interface DayCounts {
  workspaceNo: string;
  /** UTC `YYYY-MM-DD`. */
  day: string;
  requests: number;
  bytes: number;
  renders: number;
}

export class DeliveryUsage {
  #counts = new Map<string, DayCounts>();
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly sql: RawQuery,
    private readonly flushMs: number,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Starts the flush timer (unref'd: it never keeps the process alive). */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.flush(), this.flushMs);
    this.#timer.unref();
  }

  served(workspaceNo: string, bytes: number, rendered: boolean): void {
    const day = this.now().toISOString().slice(0, 10);
    const key = `${day}/${workspaceNo}`;
    let counts = this.#counts.get(key);
    if (!counts) {
      counts = { workspaceNo, day, requests: 0, bytes: 0, renders: 0 };
      this.#counts.set(key, counts);
    }
    counts.requests += 1;
    counts.bytes += bytes;
    if (rendered) counts.renders += 1;
  }

  /** Writes the counts so far in one statement; flushes run one after another. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#write());
    return this.#flushing;
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.flush();
  }

  async #write(): Promise<void> {
    if (this.#counts.size === 0) return;
    const batch = [...this.#counts.values()];
    this.#counts = new Map();
    try {
      await this.sql.$queryRaw`
        INSERT INTO usage_days AS u (workspace_id, day, requests, bytes_served, renders)
        SELECT w.id, v.day, v.requests, v.bytes, v.renders
          FROM unnest(${batch.map((c) => c.workspaceNo)}::text[], ${batch.map((c) => c.day)}::date[],
                      ${batch.map((c) => c.requests)}::bigint[], ${batch.map((c) => c.bytes)}::bigint[],
                      ${batch.map((c) => c.renders)}::bigint[])
               AS v(workspace_no, day, requests, bytes, renders)
          JOIN workspaces w ON w.workspace_no = v.workspace_no
        ON CONFLICT (workspace_id, day) DO UPDATE
          SET requests = u.requests + EXCLUDED.requests,
              bytes_served = u.bytes_served + EXCLUDED.bytes_served,
              renders = u.renders + EXCLUDED.renders`;
    } catch (error) {
      this.log.warn(
        { err: error, rows: batch.length },
        "delivery usage not written; kept for the next flush",
      );
      for (const counts of batch) this.#putBack(counts);
    }
  }

  #putBack(counts: DayCounts): void {
    const key = `${counts.day}/${counts.workspaceNo}`;
    const current = this.#counts.get(key);
    if (!current) {
      this.#counts.set(key, counts);
      return;
    }
    current.requests += counts.requests;
    current.bytes += counts.bytes;
    current.renders += counts.renders;
  }
}
