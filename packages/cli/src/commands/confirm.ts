import { createInterface } from "node:readline/promises";
import { UsageError } from "../cli-errors.js";

/**
 * Asks before something permanent (`action`: "delete 2 files permanently"). Without a terminal
 * to ask on (scripts, CI) it refuses rather than guess: pass `--yes` there.
 */
export async function confirm(action: string, yes: boolean | undefined): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UsageError(`refusing to ${action} without --yes (no terminal to ask on).`);
  }
  const readline = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await readline.question(`${action[0]!.toUpperCase()}${action.slice(1)}? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    readline.close();
  }
}
