import { CommanderError } from "commander";
import { ReportedFailure, UsageError } from "./cli-errors.js";
import { EXIT } from "./exit-codes.js";
import { buildProgram } from "./program.js";
import { Runtime } from "./runtime.js";

/**
 * Runs `trove` with `argv` (without node and the script) and returns the exit code. Every error
 * ends here: a usage error or an API error becomes one sentence on stderr; a stack trace is
 * printed only with TROVE_DEBUG=1.
 */
export async function run(argv: string[]): Promise<number> {
  let program: ReturnType<typeof buildProgram> | undefined;
  const runtime = new Runtime(() => program?.opts<{ config?: string }>().config);
  program = buildProgram(runtime);
  try {
    process.exitCode = undefined;
    await program.parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version "fail" with exit code 0; everything else commander rejects is usage.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof ReportedFailure) return error.exitCode;
    runtime.warn(await runtime.sentence(error));
    if (process.env.TROVE_DEBUG === "1" && error instanceof Error && error.stack) runtime.warn(error.stack);
    return error instanceof UsageError ? EXIT.usage : EXIT.failure;
  }
}
