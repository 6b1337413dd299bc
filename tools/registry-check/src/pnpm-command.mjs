// The pnpm that publishes and packs: the one on PATH when it is the major package.json pins, else
// the pinned one through npx (as scripts/bootstrap.mjs finds it for `npm test`; CI's .ci/run may
// have pnpm only as a shell function, which a child process cannot see).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** @returns {string[]} the command and its leading arguments */
export function pnpmCommand(root) {
  const pinned = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager;
  const probe = spawnSync("pnpm", ["--version"], { encoding: "utf8" });
  if (
    probe.status === 0 &&
    probe.stdout.trim().split(".")[0] === pinned.replace(/^pnpm@/, "").split(".")[0]
  ) {
    return ["pnpm"];
  }
  return ["npx", "--yes", pinned];
}
