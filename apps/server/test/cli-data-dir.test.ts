/**
 * The embedded database's lock and the data folder every `trove-server` command finds. The same
 * against a real running server (a child process) is in e2e/operator-cli.test.ts.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../src/cli.js";
import { acquireDataDirLock, DataDirLockedError, lockPathOf } from "../src/db/data-dir-lock.js";
import { openDatabase } from "../src/db/database.js";
import { checkoutRootOf, operatorCommand, withCheckoutDataDir } from "../src/trove-checkout.js";

const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url)).replace(/\/$/, "");

/** The pid of a process that has exited: nobody holds a lock under it. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  return Number(child.stdout);
}

describe("the embedded database's lock", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "trove-lock-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("is held while a PGlite directory is open, refuses a second opener, and is released on close", async () => {
    const pgdata = join(dir, "pgdata");
    const first = await openDatabase({ kind: "pglite", dataDir: pgdata });
    try {
      expect(first.dataLock?.path).toBe(join(dir, "pgdata.lock"));
      expect(JSON.parse(readFileSync(lockPathOf(pgdata), "utf8")).pid).toBe(process.pid);
      const second = openDatabase({ kind: "pglite", dataDir: pgdata });
      await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    } finally {
      await first.close();
    }
    expect(existsSync(lockPathOf(pgdata))).toBe(false);
    const again = await openDatabase({ kind: "pglite", dataDir: pgdata });
    await again.close();
  }, 60_000);

  it("takes over a stale lock, whose process is gone, or which is unreadable", () => {
    const pgdata = join(dir, "pgdata");
    for (const stale of [JSON.stringify({ pid: deadPid(), command: "start" }), "{half-writ"]) {
      writeFileSync(lockPathOf(pgdata), stale);
      const lock = acquireDataDirLock(pgdata, "keys create");
      expect(JSON.parse(readFileSync(lock.path, "utf8"))).toEqual({
        pid: process.pid,
        command: "keys create",
      });
      lock.release();
      expect(existsSync(lock.path)).toBe(false);
    }
  });

  it("release leaves a lock taken over by another process alone", () => {
    const pgdata = join(dir, "pgdata");
    const lock = acquireDataDirLock(pgdata, "start");
    const other = JSON.stringify({ pid: process.ppid, command: "start" });
    writeFileSync(lock.path, other);
    lock.release();
    expect(readFileSync(lock.path, "utf8")).toBe(other);
  });

  it("a command beside a running server exits 1 naming its pid and what to do, and writes nothing", async () => {
    // The lock as a running server leaves it: a live pid (this test's parent) and its address.
    await mkdir(join(dir, "pgdata"));
    writeFileSync(
      lockPathOf(join(dir, "pgdata")),
      JSON.stringify({ pid: process.ppid, command: "start", address: "http://127.0.0.1:3000" }),
    );
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      out: (s: string) => out.push(s),
      err: (s: string) => err.push(s),
      env: { TROVE_DATA_DIR: dir },
    };
    for (const args of [
      ["keys", "create", "--workspace", "1", "--type", "private"],
      ["transforms", "set", "--workspace", "1", "thumb", "w_100"],
      ["migrate"],
    ]) {
      out.length = 0;
      err.length = 0;
      expect(await runCli(args, io), args.join(" ")).toBe(1);
      expect(out).toEqual([]);
      const message = err.join("\n");
      expect(message).toContain(
        `in use by a running trove-server (pid ${process.ppid}, listening on http://127.0.0.1:3000)`,
      );
      expect(message).toContain(`kill ${process.ppid}`);
      expect(message).toContain("TROVE_ADMIN_TOKEN");
      expect(message).toContain("DATABASE_URL");
      expect(message).not.toMatch(/\n\s+at /); // no stack
    }
    expect(readFileSync(join(dir, "pgdata.lock"), "utf8")).toContain(String(process.ppid));
  });
});

describe("the data folder and the command hint", () => {
  it("in a checkout, commands default to the repository's .trove wherever they run; TROVE_DATA_DIR wins", () => {
    expect(checkoutRootOf()).toBe(REPO_ROOT);
    expect(withCheckoutDataDir({}).TROVE_DATA_DIR).toBe(join(REPO_ROOT, ".trove"));
    expect(withCheckoutDataDir({ TROVE_DATA_DIR: "/srv/trove" }).TROVE_DATA_DIR).toBe("/srv/trove");
    expect(operatorCommand("keys list --workspace 1")).toBe(
      "npm run trove-server -- keys list --workspace 1",
    );
    // The root script the hint names runs the server's program.
    const rootScripts = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).scripts;
    expect(rootScripts["trove-server"]).toBe("node apps/server/dist/cli.js");
  });

  it("an installed package keeps ./.trove of the working directory and the plain command", async () => {
    const project = await mkdtemp(join(tmpdir(), "trove-installed-"));
    try {
      const dist = join(project, "node_modules", "@trove", "server", "dist");
      await mkdir(dist, { recursive: true });
      await writeFile(join(dist, "..", "package.json"), JSON.stringify({ name: "@trove/server" }));
      await writeFile(join(project, "package.json"), JSON.stringify({ name: "trove-monorepo" }));
      await writeFile(join(project, "pnpm-workspace.yaml"), "packages: []\n");
      const moduleUrl = pathToFileURL(join(dist, "cli.js")).href;
      expect(checkoutRootOf(moduleUrl)).toBeUndefined();
      expect(withCheckoutDataDir({}, moduleUrl)).toEqual({});
      expect(operatorCommand("keys list --workspace 1", moduleUrl)).toBe(
        "trove-server keys list --workspace 1",
      );
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});
