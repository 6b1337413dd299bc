/**
 * `inSpan(name, attributes, fn)`: runs `fn` as the active span `name`, a child of the current one,
 * ending it when `fn` settles and marking it failed when `fn` throws. With tracing off it is a
 * plain call of `fn`.
 */
import { type Attributes, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { tracingActive } from "./start-tracing.js";

/**
 * Trove's tracer, looked up at each use: the API is loaded twice in one process (our ESM imports
 * get its ESM build, the CommonJS SDK requires the CommonJS one), and a tracer taken from the ESM
 * copy before the SDK registered would stay a no-op forever. The global lookup finds the provider.
 */
export function tracer() {
  return trace.getTracer("trove-server");
}

export function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: () => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  if (!tracingActive()) return fn();
  return tracer().startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await fn();
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
