/**
 * Where `/metrics` is served, from the environment:
 *
 *   TROVE_METRICS       off (default) | on (the API port, `GET /metrics`) | a port number (a listener
 *                       of its own that serves only `/metrics`)
 *   TROVE_METRICS_HOST  address of that listener (127.0.0.1: a scraper on this machine or a sidecar;
 *                       set it to reach the port from elsewhere)
 *
 * Off by default: the scrape is unauthenticated, and whoever can reach it learns traffic figures
 * of the whole instance (never a workspace's id, key or path: see ./trove-metrics.ts).
 */
import { z } from "zod";

export type MetricsConfig =
  | { expose: "off" }
  | { expose: "api" }
  /** `port` 0 picks a free one (tests); `app.metricsListener.address()` says which. */
  | { expose: "port"; port: number; host: string };

const setting = z
  .string()
  .optional()
  .transform((value) => value?.trim().toLowerCase() || "off")
  .pipe(
    z.union([
      z.enum(["off", "on"]),
      z
        .string()
        .regex(/^\d{1,5}$/, 'must be "off", "on" or a port number')
        .transform(Number)
        .pipe(z.number().int().min(1).max(65535)),
    ]),
  );

export const metricsEnvSchema = {
  TROVE_METRICS: setting,
  TROVE_METRICS_HOST: z
    .string()
    .optional()
    .transform((value) => value?.trim() || "127.0.0.1"),
};

type Env = { [K in keyof typeof metricsEnvSchema]: z.output<(typeof metricsEnvSchema)[K]> };

export function resolveMetricsConfig(e: Env): MetricsConfig {
  if (e.TROVE_METRICS === "off") return { expose: "off" };
  if (e.TROVE_METRICS === "on") return { expose: "api" };
  return { expose: "port", port: e.TROVE_METRICS, host: e.TROVE_METRICS_HOST };
}
