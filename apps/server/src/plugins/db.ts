/**
 * `db` plugin: decorates `app.db` (PrismaClient; with a span per query while tracing is on,
 * src/tracing/query-spans.ts), `app.dbKind` and `app.database`, and closes the
 * database when the app closes (Prisma disconnect, then PGlite/pool close) unless the caller keeps
 * ownership (`closeOnShutdown: false`, used by tests that share one database).
 */
import fp from "fastify-plugin";
import type { Database } from "../db/database.js";
import { withQuerySpans } from "../tracing/query-spans.js";
import { tracingActive } from "../tracing/start-tracing.js";

export interface DbPluginOptions {
  database: Database;
  closeOnShutdown?: boolean;
}

export const dbPlugin = fp<DbPluginOptions>(
  async (app, { database, closeOnShutdown = true }) => {
    app.decorate("database", database);
    app.decorate("db", tracingActive() ? withQuerySpans(database.prisma) : database.prisma);
    app.decorate("dbKind", database.kind);
    if (closeOnShutdown) {
      app.addHook("onClose", async () => {
        await database.close();
      });
    }
  },
  { name: "trove-db", fastify: "5.x" },
);
