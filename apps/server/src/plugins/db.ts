/**
 * `db` plugin: closes the database when the app closes (Prisma disconnect, then PGlite/pool close)
 * unless the caller keeps ownership (`closeOnShutdown: false`, used by tests that share one
 * database). `app.db`, `app.dbKind` and `app.database` are decorated with the other services
 * (src/services.ts); this plugin keeps the name "trove-db" the auth plugin depends on.
 */
import fp from "fastify-plugin";
import type { Database } from "../db/database.js";

export interface DbPluginOptions {
  database: Database;
  closeOnShutdown?: boolean;
}

export const dbPlugin = fp<DbPluginOptions>(
  async (app, { database, closeOnShutdown = true }) => {
    if (closeOnShutdown) {
      app.addHook("onClose", async () => {
        await database.close();
      });
    }
  },
  { name: "trove-db", fastify: "5.x" },
);
