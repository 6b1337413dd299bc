/**
 * `withQuerySpans(prisma)`: the client with a CLIENT span around every query (model operations and
 * raw SQL), named `db <model>.<operation>`, a child of the request or job that ran it. Used only
 * while tracing is on; off, `app.db` is the plain client.
 *
 * A Prisma query extension rather than `@prisma/instrumentation`: that one registers through the
 * OpenTelemetry instrumentation loader; this is a few lines on the public extension API.
 */
import { SpanKind } from "@opentelemetry/api";
import type { PrismaClient } from "../generated/prisma/client.js";
import { inSpan } from "./in-span.js";

export function withQuerySpans(prisma: PrismaClient): PrismaClient {
  const extended = prisma.$extends({
    name: "trove-query-spans",
    query: {
      $allOperations({ model, operation, args, query }) {
        const name = model ? `${model}.${operation}` : operation;
        return inSpan(
          `db ${name}`,
          {
            "db.system.name": "postgresql",
            "db.operation.name": operation,
            ...(model ? { "db.collection.name": model } : {}),
          },
          () => query(args),
          SpanKind.CLIENT,
        );
      },
    },
  });
  // The extension adds no model or method, only behaviour: callers keep the client's type.
  return extended as unknown as PrismaClient;
}
