/**
 * W3C trace context across a queue: a webhook is sent by a job, long after the request that
 * caused it, so the request's context is kept in the job's payload (`traceContextOf`) and the
 * delivery runs as its child (`withTraceContext`), with `traceparent` in the outgoing request
 * (`traceHeaders`). With tracing off the propagator is a no-op: nothing is stored or sent.
 */
import { context, propagation, ROOT_CONTEXT } from "@opentelemetry/api";

/** The active context as `traceparent`/`tracestate` entries; undefined when there is none. */
export function traceContextOf(): Record<string, string> | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/** Headers that carry the active context to the receiver of an outgoing request. */
export function traceHeaders(): Record<string, string> {
  return traceContextOf() ?? {};
}

/** Runs `fn` with `carrier`'s context active (a fresh trace when it carries none). */
export function withTraceContext<T>(carrier: Record<string, string> | undefined, fn: () => T): T {
  if (!carrier) return fn();
  return context.with(propagation.extract(ROOT_CONTEXT, carrier), fn);
}
