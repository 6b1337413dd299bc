/**
 * The embedded database's lock: PGlite is one process's database. A second process that opens
 * the same directory (a `trove-server keys create` beside a running `npm start`) works on a copy
 * the first never reads, and the first overwrites it: the write is lost although it "succeeded".
 * So every process that opens a PGlite directory holds `<dir>.lock` (`.trove/pgdata.lock`) for as
 * long as it has it open; a second one is refused with the holder's pid and what to do instead.
 *
 * The lock is a file made with an exclusive create (`wx`) holding JSON `{ pid, command, address? }`
 * (the server adds its address once it listens). A lock whose process is gone (killed, crashed
 * without cleanup) is stale: it is taken over. Released on close, and on process exit as a last
 * resort. With PostgreSQL (DATABASE_URL) no lock is taken: any number of processes may share it.
 */
import { closeSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export interface LockHolder {
  pid: number;
  /** What the holder runs (`start`, `keys create ...`). */
  command: string;
  /** Where the holder listens, once it does (a running server). */
  address?: string;
}

export interface DataDirLock {
  /** The lock file. */
  path: string;
  /** Records more about this holder (the server's address once it listens). */
  update(details: Pick<LockHolder, "address">): void;
  /** Removes the lock if this process still holds it; idempotent. */
  release(): void;
}

/** Thrown when a live process holds the directory: names it and what to do. */
export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
  constructor(
    readonly databaseDir: string,
    readonly holder: LockHolder,
  ) {
    super(lockedMessage(databaseDir, holder));
  }
}

/** The lock file of a PGlite directory: beside it (PGlite wants its own directory to itself). */
export function lockPathOf(databaseDir: string): string {
  return join(dirname(databaseDir), `${basename(databaseDir)}.lock`);
}

function lockedMessage(databaseDir: string, holder: LockHolder): string {
  const who = holder.address
    ? `a running trove-server (pid ${holder.pid}, listening on ${holder.address})`
    : `another trove-server process (pid ${holder.pid}: ${holder.command || "?"})`;
  return [
    `the embedded database ${databaseDir} is in use by ${who}.`,
    "The embedded database (PGlite) serves one process at a time: a change made from a second one would be lost.",
    `Stop that process (Ctrl+C in its terminal, or \`kill ${holder.pid}\`) and run this again;`,
    "or make the change through the running server's admin API (start it with TROVE_ADMIN_TOKEN set: /admin/v1, see apps/server/README.md, Administration);",
    "or use PostgreSQL (DATABASE_URL), which any number of processes may share.",
  ].join("\n");
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(path: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<LockHolder>;
    if (typeof parsed.pid !== "number" || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return undefined;
    return {
      pid: parsed.pid,
      command: String(parsed.command ?? ""),
      ...(parsed.address ? { address: parsed.address } : {}),
    };
  } catch {
    // Gone since (released), or half-written by a holder that died mid-write: not a live lock.
    return undefined;
  }
}

/**
 * Takes the lock of `databaseDir` for this process, or throws `DataDirLockedError` naming the live
 * holder. A stale lock (its pid is gone, or it is unreadable) is removed and taken.
 */
export function acquireDataDirLock(databaseDir: string, command: string): DataDirLock {
  const path = lockPathOf(databaseDir);
  const holder: LockHolder = { pid: process.pid, command };
  for (let attempt = 0; attempt < 5; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, "wx", 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const current = readHolder(path);
      if (current && isAlive(current.pid)) throw new DataDirLockedError(databaseDir, current);
      // Stale: another process may be taking it over too; whoever creates the file next wins.
      rmSync(path, { force: true });
      continue;
    }
    try {
      writeSync(fd, JSON.stringify(holder));
    } finally {
      closeSync(fd);
    }
    return ownLock(path, holder);
  }
  throw new Error(`could not take the lock ${path}: it keeps changing hands`);
}

function ownLock(path: string, holder: LockHolder): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener("exit", release);
    // Only our own: a lock taken over after ours went stale belongs to its new holder.
    if (readHolder(path)?.pid === holder.pid) rmSync(path, { force: true });
  };
  process.once("exit", release);
  return {
    path,
    update(details) {
      if (released) return;
      Object.assign(holder, details);
      writeFileSync(path, JSON.stringify(holder), { mode: 0o600 });
    },
    release,
  };
}
