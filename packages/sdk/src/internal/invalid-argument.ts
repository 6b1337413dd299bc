import { TroveError } from "./errors.js";

/** A call the SDK refuses before sending anything: the fix is in the caller's code or input. */
export function invalidArgument(message: string): TroveError {
  return new TroveError(message, { code: "INVALID_ARGUMENT" });
}
