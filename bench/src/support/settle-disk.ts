/**
 * `settleDisk()`: writes dirty pages back before a bench starts, so that no bench pays for the
 * previous one's writes. Bench 3 writes about 3 GiB just before bench 1, whose ratio was 0.76x
 * in full runs but 0.88-0.95x run alone (`--only=1`) on the same machine; writeback competing
 * for the 2 cores and the disk is the likely difference. Each bench now starts as it does alone.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Runs sync(1); returns how long it took, ms. */
export async function settleDisk(): Promise<number> {
  const started = Date.now();
  await run("sync");
  return Date.now() - started;
}
