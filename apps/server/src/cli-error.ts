/** A refusal the `trove-server` CLI reports as `trove-server: <message>` with exit code 1 (no stack). */
export class CliError extends Error {
  override name = "CliError";
}
