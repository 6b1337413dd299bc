/**
 * `requestSpans` plugin (registered only while tracing is on): one SERVER span per request, named
 * by method and route pattern, a child of the caller's `traceparent` when one came, and the
 * active context of everything the request runs: hooks, body parsing, handler, and so the
 * database, storage and render spans made on its behalf.
 *
 * The context is entered in the first `onRequest` hook by calling `done` inside it, and bound to
 * the request stream, whose 'data'/'end' listeners (body parsers) run from the socket's own
 * async context otherwise. Attributes hold the route pattern, never the raw URL: query strings
 * carry signatures and upload tokens.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { routeLabel } from "../metrics/request-labels.js";
import { tracer } from "./in-span.js";

const spans = new WeakMap<FastifyRequest, Span>();

function end(request: FastifyRequest, status: number | undefined): void {
  const span = spans.get(request);
  if (!span) return;
  spans.delete(request);
  if (status === undefined) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: "request aborted" });
  } else {
    span.setAttribute("http.response.status_code", status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

export const requestSpansPlugin = fp(
  async (app) => {
    app.addHook("onRequest", (request, _reply, done) => {
      const parent = propagation.extract(ROOT_CONTEXT, request.headers);
      const route = routeLabel(request);
      const span = tracer().startSpan(
        `${request.method} ${route}`,
        {
          kind: SpanKind.SERVER,
          attributes: {
            "http.request.method": request.method,
            "http.route": route,
            "trove.request_id": request.id,
          },
        },
        parent,
      );
      spans.set(request, span);
      const active = trace.setSpan(parent, span);
      context.bind(active, request.raw);
      context.with(active, done);
    });
    app.addHook("onResponse", async (request, reply) => end(request, reply.statusCode));
    app.addHook("onRequestAbort", async (request) => end(request, undefined));
  },
  { name: "trove-request-spans", fastify: "5.x" },
);
