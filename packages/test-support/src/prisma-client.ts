/**
 * A vitest global setup for suites that run the server from source in a child process: its
 * Prisma client must be generated first.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function generatePrismaClient(): void {
  const script = fileURLToPath(new URL("../../../apps/server/scripts/generate.mjs", import.meta.url));
  execFileSync(process.execPath, [script], { stdio: "inherit" });
}
