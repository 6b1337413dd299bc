import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import { FsStorageDriver } from "../../src/storage/fs-driver.js";
import type { TestApp } from "./create-test-app.js";

/**
 * A second instance beside `first`: the same database and storage root, its own process state
 * (gates, caches, job runner) and data directory under `dir`, ready to serve.
 */
export async function startSecondInstance(first: TestApp, dir: string): Promise<FastifyInstance> {
  const second = await buildApp({
    config: { ...first.config, seedDev: false, dataDir: join(dir, "second") },
    logger: false,
    storage: new FsStorageDriver(first.storageDir),
  });
  await second.ready();
  return second;
}
