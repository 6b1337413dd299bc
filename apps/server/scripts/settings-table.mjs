#!/usr/bin/env node
/**
 * Rewrites the configuration table of apps/server/README.md from src/config/settings.ts.
 * The table is made by src/config/settings-table.ts (TypeScript); the test that checks it in
 * `npm test`, src/config/settings-table.test.ts, writes it instead when TROVE_WRITE_SETTINGS_TABLE=1,
 * so this runs that one test file under vitest, which already reads the TypeScript sources.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const result = spawnSync(
  "pnpm",
  ["exec", "vitest", "run", "--project", "server", "src/config/settings-table.test.ts"],
  { cwd: root, stdio: "inherit", env: { ...process.env, TROVE_WRITE_SETTINGS_TABLE: "1" } },
);
process.exit(result.status ?? 1);
