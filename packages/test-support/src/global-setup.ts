/**
 * The vitest global setup of every suite that starts the real server from source in a child
 * process (e2e, the CLI tests): the server's Prisma client is generated first, then one embedded
 * database is migrated into a template that `startServerProcess` copies into each fresh data
 * directory (./pgdata-template.ts), so that no server spends seconds creating and migrating one;
 * and the server is bundled from its source once, for every process the suites start
 * (./server-bundle.ts).
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createPgdataTemplate } from "./pgdata-template.js";
import { buildServerBundle } from "./server-bundle.js";
import { runServerCommand } from "./server-process.js";

export function generatePrismaClient(): void {
  const script = fileURLToPath(new URL("../../../apps/server/scripts/generate.mjs", import.meta.url));
  execFileSync(process.execPath, [script], { stdio: "inherit" });
}

export default async function setup(): Promise<() => Promise<void>> {
  generatePrismaClient();
  const removeBundle = await buildServerBundle();
  const removeTemplate = await createPgdataTemplate((dataDir) =>
    runServerCommand(["migrate"], { TROVE_DATA_DIR: dataDir }),
  );
  return async () => {
    await removeTemplate();
    await removeBundle();
  };
}
