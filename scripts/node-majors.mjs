#!/usr/bin/env node
// Runs the vitest projects each supported Node major lists in node-majors.json (`suites`: the
// schema and SDK on every major, the server on the oldest and newest, and the engines check) under
// every major other than the one running this script, which `npm test` already covers. The majors and their
// pinned versions are in node-majors.json. Each Node comes from the npm registry's official
// binary packages (`node-<platform>-<arch>`), installed once into .ci/node-majors/<major>, so CI
// needs no other download source.
// Usage: node scripts/node-majors.mjs [--results <dir>] [major ...]
// With --results, each major writes <dir>/node<major>.json for scripts/ci-tally.mjs; majors named
// on the command line limit the run to them.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const { majors } = JSON.parse(readFileSync(join(root, "scripts/node-majors.json"), "utf8"));
const { values, positionals } = parseArgs({
  options: { results: { type: "string" } },
  allowPositionals: true,
});
const resultsDir = values.results;
const only = positionals.map(Number);
const ownMajor = Number(process.versions.node.split(".")[0]);
const binaryPackage = `node-${process.platform}-${process.arch}`;

function versionOf(node) {
  const probe = spawnSync(node, ["-p", "process.version"], { encoding: "utf8" });
  return probe.status === 0 ? probe.stdout.trim() : undefined;
}

/** The pinned Node's bin folder, installed on first use and reused while the pin is unchanged. */
function install(major, version) {
  const prefix = join(root, ".ci/node-majors", String(major));
  const bin = join(prefix, "node_modules", binaryPackage, "bin");
  const node = join(bin, "node");
  if (existsSync(node) && versionOf(node) === `v${version}`) return bin;
  const npm = spawnSync(
    "npm",
    [
      "install",
      "--prefix",
      prefix,
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      `${binaryPackage}@${version}`,
    ],
    { stdio: "inherit" },
  );
  if (npm.status !== 0) throw new Error(`npm could not install ${binaryPackage}@${version}`);
  const installed = versionOf(node);
  if (installed !== `v${version}`)
    throw new Error(`${node} reports ${installed ?? "nothing"}, not v${version}`);
  return bin;
}

let failed = 0;
for (const { major, ci, suites } of majors) {
  if (major === ownMajor || (only.length > 0 && !only.includes(major))) continue;
  const started = Date.now();
  const bin = install(major, ci);
  console.log(`== Node ${major}: ${versionOf(join(bin, "node"))} (${join(bin, "node")})`);
  // The pinned node first on PATH, so anything a test starts as `node` runs on it too;
  // TROVE_NODE_MAJOR makes tools/node-support fail if a worker runs on any other Node.
  const env = {
    ...process.env,
    PATH: `${bin}${delimiter}${process.env.PATH}`,
    TROVE_NODE_MAJOR: String(major),
  };
  if (resultsDir) env.TROVE_VITEST_JSON = join(resultsDir, `node${major}.json`);
  const vitest = join(root, "node_modules/vitest/vitest.mjs");
  const run = spawnSync(
    join(bin, "node"),
    [vitest, "run", ...suites.flatMap((name) => ["--project", name])],
    { cwd: root, env, stdio: "inherit" },
  );
  if (run.status !== 0) failed += 1;
  console.log(
    `== Node ${major}: ${run.status === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)}s`,
  );
}
process.exit(failed > 0 ? 1 : 0);
