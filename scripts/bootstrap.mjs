#!/usr/bin/env node
// Lets a newcomer with only Node and npm run `npm start` / `npm test`:
// finds (or fetches) the pinned pnpm, installs the workspace, then runs the real script.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const PNPM_VERSION = "12.21.0";
const [script, ...args] = process.argv.slice(2);
if (!script) {
  console.error("usage: node scripts/bootstrap.mjs <pnpm script> [args...]");
  process.exit(2);
}

function run(command, commandArgs) {
  const result = spawnSync(command, commandArgs, { stdio: "inherit", shell: process.platform === "win32" });
  if (result.error) return { ok: false, missing: result.error.code === "ENOENT" };
  return { ok: result.status === 0, status: result.status ?? 1 };
}

function pnpmCommand() {
  const probe = spawnSync("pnpm", ["--version"], { encoding: "utf8" });
  if (probe.status === 0 && probe.stdout.trim().split(".")[0] === PNPM_VERSION.split(".")[0]) {
    return ["pnpm", []];
  }
  // No global pnpm (or another major): npx fetches the pinned one from the npm registry.
  return ["npx", ["--yes", `pnpm@${PNPM_VERSION}`]];
}

// `npm start` keeps its data in the repository's ./.trove, as the README says: the server runs
// from its package folder, where the default (relative) TROVE_DATA_DIR would otherwise land.
if (script === "start:server" && !process.env.TROVE_DATA_DIR) {
  process.env.TROVE_DATA_DIR = fileURLToPath(new URL("../.trove", import.meta.url));
}

const [pnpm, prefix] = pnpmCommand();
const install = run(pnpm, [...prefix, "install", "--frozen-lockfile", "--reporter=silent"]);
if (!install.ok) {
  console.error("trove: `pnpm install` failed; see the output above.");
  process.exit(install.status ?? 1);
}
const result = run(pnpm, [...prefix, "run", script, ...args]);
process.exit(result.ok ? 0 : (result.status ?? 1));
