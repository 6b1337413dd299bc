import { EXIT, type ExitCode } from "./exit-codes.js";

/** The command line or the configuration is wrong: printed as one sentence, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * The command already reported what went wrong (per-file failures of an upload, some deletions
 * refused): nothing more to print, just leave with `exitCode`.
 */
export class ReportedFailure extends Error {
  override name = "ReportedFailure";
  readonly exitCode: ExitCode;

  constructor(exitCode: ExitCode = EXIT.failure) {
    super("reported");
    this.exitCode = exitCode;
  }
}
