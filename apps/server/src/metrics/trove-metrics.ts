/**
 * The metrics of one app instance, in a registry of its own (never prom-client's global one, so
 * several apps in one process, as in tests, keep separate counts).
 *
 * Every label has a small fixed set of values: route patterns (`/api/v1/files/:fileNo`, or
 * `unmatched` for anything no route matched), methods, status codes, upload paths, outcomes,
 * rate-limit layers, job kinds. No label ever carries a raw path, a workspace, a key or a file,
 * so a scanner cannot grow the series count and a scrape reveals nothing about one workspace.
 *
 * Counters and histograms are updated where things happen (./metrics-plugin.ts for requests,
 * delivery bytes and cache results; the upload, render and rate-limit code for theirs). Gauges of
 * state (render queue, database pool, open multipart sessions, jobs) are read when scraped.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { UploadMethod } from "../uploads/upload-method.js";

/** What happened to an upload: stored as a new file, stored with content seen before, or not. */
export type UploadOutcome = "stored" | "duplicate" | "refused" | "failed";

/** Reads the state gauges show; each runs at scrape time. */
export interface MetricsSources {
  renderLoad(): { running: number; waiting: number };
  /** Connections of the PostgreSQL pool; undefined on PGlite, which has no pool. */
  dbPool(): { total: number; idle: number; waiting: number } | undefined;
  /** Multipart sessions not yet completed, aborted or expired. */
  openMultipartSessions(): Promise<number>;
  /** Jobs by kind and status, without the succeeded ones. */
  jobCounts(): Promise<Array<{ kind: string; status: string; count: number }>>;
  /** A gauge source failed (the database is down): the scrape goes on without that gauge. */
  onSourceError(error: unknown): void;
}

/** Request durations, seconds: from a cached small file to a slow remote upload. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Render durations, seconds. */
const RENDER_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export class TroveMetrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: "trove_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [this.registry],
  });

  readonly requestDuration = new Histogram({
    name: "trove_http_request_duration_seconds",
    help: "Time from receiving a request to finishing its response",
    labelNames: ["method", "route", "status"] as const,
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });

  readonly uploads = new Counter({
    name: "trove_uploads_total",
    help: "Uploads by path (direct, remote, multipart) and outcome (stored, duplicate, refused, failed)",
    labelNames: ["path", "outcome"] as const,
    registers: [this.registry],
  });

  readonly uploadedBytes = new Counter({
    name: "trove_uploaded_bytes_total",
    help: "Bytes of files stored by successful uploads, by path",
    labelNames: ["path"] as const,
    registers: [this.registry],
  });

  readonly deliveredBytes = new Counter({
    name: "trove_delivered_bytes_total",
    help: "Body bytes of successful GET responses of the delivery host",
    registers: [this.registry],
  });

  readonly variantCache = new Counter({
    name: "trove_variant_cache_total",
    help: "Transformed-variant requests served from the cache (hit) or rendered (miss)",
    labelNames: ["result"] as const,
    registers: [this.registry],
  });

  readonly renders = new Counter({
    name: "trove_renders_total",
    help: "Delivery renders run, by outcome (ok, error)",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });

  readonly renderDuration = new Histogram({
    name: "trove_render_duration_seconds",
    help: "Time a delivery render took, storing the variant included",
    buckets: RENDER_BUCKETS,
    registers: [this.registry],
  });

  readonly rateLimitRefusals = new Counter({
    name: "trove_rate_limit_refusals_total",
    help: "Requests refused with 429, by the limit layer that refused them",
    labelNames: ["layer"] as const,
    registers: [this.registry],
  });

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    new Gauge({
      name: "trove_render_queue_length",
      help: "Renders waiting for a slot",
      registers,
      collect() {
        this.set(sources.renderLoad().waiting);
      },
    });
    new Gauge({
      name: "trove_renders_running",
      help: "Renders running now",
      registers,
      collect() {
        this.set(sources.renderLoad().running);
      },
    });
    new Gauge({
      name: "trove_db_pool_connections",
      help: "PostgreSQL pool connections by state (total, idle, waiting: callers queued for one); absent on PGlite",
      labelNames: ["state"] as const,
      registers,
      collect() {
        const pool = sources.dbPool();
        if (!pool) return;
        this.set({ state: "total" }, pool.total);
        this.set({ state: "idle" }, pool.idle);
        this.set({ state: "waiting" }, pool.waiting);
      },
    });
    new Gauge({
      name: "trove_multipart_sessions_open",
      help: "Multipart sessions started and not yet completed, aborted or expired (all instances)",
      registers,
      async collect() {
        try {
          this.set(await sources.openMultipartSessions());
        } catch (error) {
          sources.onSourceError(error);
        }
      },
    });
    new Gauge({
      name: "trove_jobs",
      help: "Background jobs by kind and status (pending, running, failed), all instances; failed ones stay until retention removes them",
      labelNames: ["kind", "status"] as const,
      registers,
      async collect() {
        try {
          const counts = await sources.jobCounts();
          this.reset();
          for (const { kind, status, count } of counts) this.set({ kind, status }, count);
        } catch (error) {
          sources.onSourceError(error);
        }
      },
    });
  }

  /** An upload answered: its path, outcome and, when stored, its size. */
  upload(path: UploadMethod, outcome: UploadOutcome, bytes = 0): void {
    this.uploads.inc({ path, outcome });
    if (bytes > 0) this.uploadedBytes.inc({ path }, bytes);
  }
}
