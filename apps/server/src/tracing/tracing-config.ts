/**
 * Whether tracing is on and where spans go, from the OTEL_* settings (src/config/settings.ts):
 * `config.tracing`, which src/server.ts hands to `startTracing`. The exporter reads the other
 * standard variables itself (`OTEL_EXPORTER_OTLP_HEADERS`, timeouts).
 */
import type { SettingValues } from "../config/settings.js";

export interface TracingConfig {
  /** The OTLP/HTTP traces URL; undefined: tracing is off. */
  tracesUrl: string | undefined;
  /** `service.name` of the spans. */
  serviceName: string;
}

type TracingSettings = Pick<
  SettingValues,
  | "OTEL_SDK_DISABLED"
  | "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
  | "OTEL_EXPORTER_OTLP_ENDPOINT"
  | "OTEL_SERVICE_NAME"
>;

export const TRACING_SETTINGS = [
  "OTEL_SDK_DISABLED",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_SERVICE_NAME",
] as const satisfies readonly (keyof TracingSettings)[];

/** `url` without its trailing slashes; a loop, since `/\/+$/` backtracks quadratically on a run of them. */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === "/") end -= 1;
  return url.slice(0, end);
}

export function tracingConfigOf(settings: TracingSettings): TracingConfig {
  const serviceName = settings.OTEL_SERVICE_NAME;
  if (settings.OTEL_SDK_DISABLED) return { tracesUrl: undefined, serviceName };
  const base = settings.OTEL_EXPORTER_OTLP_ENDPOINT;
  const tracesUrl =
    settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (base ? `${withoutTrailingSlashes(base)}/v1/traces` : undefined);
  return { tracesUrl, serviceName };
}
