/**
 * OpenTelemetry tracing, off unless `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set: then `startTracing` registers a tracer provider
 * that exports spans as OTLP/HTTP (JSON) to that collector, in batches, with W3C trace context
 * propagation and an AsyncLocalStorage context manager. `OTEL_SERVICE_NAME` names the service
 * (trove-server); `OTEL_SDK_DISABLED=true` keeps it off. These are settings like any other
 * (src/config/settings.ts, read into `config.tracing` by ./tracing-config.ts).
 *
 * Spans are made by Trove's own code (./request-spans.ts, ./query-spans.ts, ./storage-spans.ts,
 * ./in-span.ts), not by auto-instrumentation loaders, which need `--import` hooks under ESM. Off,
 * nothing is registered: the wrappers are never installed and `inSpan` calls straight through, and
 * the SDK and exporter are not even loaded (they cost a start about 0.2 s of CPU).
 */
import { context, propagation, trace } from "@opentelemetry/api";
import { type Environment, readSettings } from "../config/read-settings.js";
import { TRACING_SETTINGS, type TracingConfig, tracingConfigOf } from "./tracing-config.js";

function isTracingConfig(from: TracingConfig | Environment): from is TracingConfig {
  return typeof from.serviceName === "string" && "tracesUrl" in from;
}

export interface Tracing {
  /** Exports the spans ended so far (tests, and before exit). */
  flush(): Promise<void>;
  /** Exports what is left and unregisters the provider. */
  shutdown(): Promise<void>;
}

let active = false;

/** Whether spans are being recorded (a provider is registered by `startTracing`). */
export function tracingActive(): boolean {
  return active;
}

/** The OTLP/HTTP traces URL an environment names, or undefined when tracing is off. */
export function tracesUrlOf(env: Environment): string | undefined {
  return tracingConfigOf(readSettings(env, TRACING_SETTINGS)).tracesUrl;
}

/**
 * Starts tracing as `config.tracing` says (or as an environment's OTEL_* variables say, for
 * tests); undefined when it is off or already on.
 */
export async function startTracing(from: TracingConfig | Environment): Promise<Tracing | undefined> {
  const { tracesUrl: url, serviceName } = isTracingConfig(from)
    ? from
    : tracingConfigOf(readSettings(from, TRACING_SETTINGS));
  if (!url || active) return undefined;
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, { BatchSpanProcessor, NodeTracerProvider }] =
    await Promise.all([
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources"),
      import("@opentelemetry/sdk-trace-node"),
    ]);
  if (active) return undefined;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  provider.register();
  active = true;
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      active = false;
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
