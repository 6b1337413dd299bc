/**
 * Before the suites: what every suite that starts the server needs (its Prisma client, a
 * migrated template database: @trove/test-support/global-setup), and the `trove` binary built
 * from source into a temporary directory.
 *
 * The binary is src/bin.ts bundled by esbuild with the `dev-source` condition, so it is the
 * current source of @trove/cli, @trove/sdk and @trove/schema (no stale dist), and each command
 * starts in a fraction of a second instead of the seconds tsx needs to transpile the SDK and zod
 * on every run: the suites start the binary some hundred times.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleSource } from "@trove/test-support/bundle-source";
import setupServerSuites from "@trove/test-support/global-setup";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    troveBin: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const removeTemplate = await setupServerSuites();
  const dir = await mkdtemp(join(tmpdir(), "trove-cli-bin-"));
  const outfile = join(dir, "trove.mjs");
  await bundleSource(fileURLToPath(new URL("../../src/bin.ts", import.meta.url)), outfile, {
    sourcemap: "inline",
    // CommonJS dependencies (cli-progress, cli-table3) call require() for Node built-ins.
    banner: {
      js: "import { createRequire as __troveRequire } from 'node:module'; const require = __troveRequire(import.meta.url);",
    },
  });
  project.provide("troveBin", outfile);
  return async () => {
    await rm(dir, { recursive: true, force: true });
    await removeTemplate();
  };
}
