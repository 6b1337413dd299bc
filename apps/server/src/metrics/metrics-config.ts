/**
 * Where `/metrics` is served, from two settings (src/config/settings.ts):
 *
 *   TROVE_METRICS       off (default) | on (the API port, `GET /metrics`) | a port number (a listener
 *                       of its own that serves only `/metrics`)
 *   TROVE_METRICS_HOST  address of that listener (127.0.0.1: a scraper on this machine or a sidecar;
 *                       set it to reach the port from elsewhere)
 *
 * Off by default: the scrape is unauthenticated, and whoever can reach it learns traffic figures
 * of the whole instance (never a workspace's id, key or path: see ./trove-metrics.ts).
 */
import type { SettingValues } from "../config/settings.js";

export type MetricsConfig =
  | { expose: "off" }
  | { expose: "api" }
  /** `port` 0 picks a free one (tests); `app.metricsListener.address()` says which. */
  | { expose: "port"; port: number; host: string };

export function resolveMetricsConfig(
  e: Pick<SettingValues, "TROVE_METRICS" | "TROVE_METRICS_HOST">,
): MetricsConfig {
  if (e.TROVE_METRICS === "off") return { expose: "off" };
  if (e.TROVE_METRICS === "on") return { expose: "api" };
  return { expose: "port", port: e.TROVE_METRICS, host: e.TROVE_METRICS_HOST };
}
