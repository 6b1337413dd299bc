#!/usr/bin/env node
// Generates Prisma Client into src/generated/prisma without Prisma's native engines.
//
// `prisma generate` needs no schema engine, but the CLI insists that one exists and would try to
// download it from a host we must not need. Pointing PRISMA_SCHEMA_ENGINE_BINARY at an executable
// that exits 1 satisfies the check (a command that really needed the engine fails loudly instead of
// silently doing nothing, as it would with /bin/true).
//
// Skips the work when the output matches the schema and Prisma version (a stamp file), and takes a
// lock directory so build, typecheck and the vitest globalSetup can call it concurrently.
// Usage: node scripts/generate.mjs [--force]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "package.json"));
const schemaPath = join(root, "prisma", "schema.prisma");
const outDir = join(root, "src", "generated", "prisma");
const stampPath = join(outDir, ".stamp");
const lockDir = join(root, "src", "generated", ".lock");

const prismaPkg = JSON.parse(readFileSync(require.resolve("prisma/package.json"), "utf8"));
const stamp = createHash("sha256")
  .update(prismaPkg.version)
  .update("\0")
  .update(readFileSync(schemaPath))
  .digest("hex");

const force = process.argv.includes("--force");
const upToDate = () => existsSync(stampPath) && readFileSync(stampPath, "utf8") === stamp;

if (!force && upToDate()) process.exit(0);

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

mkdirSync(dirname(lockDir), { recursive: true });
const deadline = Date.now() + 120_000;
for (;;) {
  try {
    mkdirSync(lockDir);
    break;
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
    // A lock older than two minutes belongs to a process that died.
    try {
      if (Date.now() - statSync(lockDir).mtimeMs > 120_000) rmSync(lockDir, { recursive: true, force: true });
    } catch {}
    if (Date.now() > deadline) throw new Error(`generate: timed out waiting for ${lockDir}`);
    sleep(200);
  }
}

try {
  // Another process may have generated while we waited for the lock.
  if (force || !upToDate()) {
    const noEngine = join(tmpdir(), `trove-no-schema-engine-${process.getuid?.() ?? "u"}.sh`);
    writeFileSync(
      noEngine,
      "#!/bin/sh\necho 'trove: the native Prisma schema engine is not used here' >&2\nexit 1\n",
    );
    chmodSync(noEngine, 0o755);
    const cli = join(dirname(require.resolve("prisma/package.json")), "build", "index.js");
    const result = spawnSync(process.execPath, [cli, "generate", "--schema", schemaPath], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      encoding: "utf8",
      env: {
        ...process.env,
        PRISMA_SCHEMA_ENGINE_BINARY: noEngine,
        CHECKPOINT_DISABLE: "1",
        PRISMA_HIDE_UPDATE_MESSAGE: "1",
        PRISMA_GENERATE_SKIP_AUTOINSTALL: "1",
      },
    });
    if (result.status !== 0) {
      process.stderr.write(result.stdout ?? "");
      process.stderr.write(result.stderr ?? "");
      throw new Error(`prisma generate failed (exit ${result.status})`);
    }
    writeFileSync(stampPath, stamp);
  }
} finally {
  rmSync(lockDir, { recursive: true, force: true });
}
