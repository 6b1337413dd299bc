/**
 * OpenTelemetry tracing, off unless `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set: then `startTracing` registers a tracer provider
 * that exports spans as OTLP/HTTP (JSON) to that collector, in batches, with W3C trace context
 * propagation and an AsyncLocalStorage context manager. `OTEL_SERVICE_NAME` names the service
 * (trove-server); `OTEL_SDK_DISABLED=true` keeps it off. The exporter reads the other standard
 * variables itself (`OTEL_EXPORTER_OTLP_HEADERS`, timeouts).
 *
 * Spans are made by Trove's own code (./request-spans.ts, ./query-spans.ts, ./storage-spans.ts,
 * ./in-span.ts), not by auto-instrumentation loaders, which need `--import` hooks under ESM. Off,
 * nothing is registered: the wrappers are never installed and `inSpan` calls straight through.
 */
import { context, propagation, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

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

/** `url` without its trailing slashes; a loop, since `/\/+$/` backtracks quadratically on a run of them. */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === "/") end -= 1;
  return url.slice(0, end);
}

/** The OTLP/HTTP traces URL the environment names, or undefined when tracing is off. */
export function tracesUrlOf(env: NodeJS.ProcessEnv): string | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${withoutTrailingSlashes(base)}/v1/traces` : undefined;
}

export function startTracing(env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  const url = tracesUrlOf(env);
  if (!url || active) return undefined;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME?.trim() || "trove-server" }),
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
