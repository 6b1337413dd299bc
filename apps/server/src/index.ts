/**
 * @trove/server as a library: build the app yourself (embedding, tests, custom hosting).
 * The `trove-server` command is the usual way to run it.
 */
export { type BuildAppOptions, buildApp } from "./app.js";
export {
  ConfigError,
  type ConfigInput,
  type DatabaseConfig,
  loadConfig,
  resolveConfig,
  type ServerConfig,
} from "./config.js";
export { type Database, type DbKind, openDatabase } from "./db/database.js";
export { type MigrateResult, migrate, readMigrations } from "./db/migrator.js";
export { deliveryUrl } from "./delivery/delivery-url.js";
export * from "./errors/index.js";
export { parseFileNo, parseShortNo, parseUuidParam } from "./errors/params.js";
export type { AuthContext, AuthMode } from "./plugins/auth.js";
export { type StartedServer, startServer } from "./server.js";
export * from "./storage/driver.js";
export { FsStorageDriver } from "./storage/fs-driver.js";

import "./fastify-types.js";
