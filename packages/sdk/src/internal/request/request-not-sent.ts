import { isRecord } from "../is-record.js";

// Failures that happen before a single byte of the request leaves: nothing can have been
// processed, so even a POST may be sent again. Codes from Node (undici) and Bun; the message
// pattern covers Deno and Bun, whose errors carry no code.
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  "ConnectionRefused",
]);
const NOT_SENT_MESSAGE = /connection refused|ECONNREFUSED/i;

/** True when a fetch failure proves the request was never sent. Browsers never say, so false there. */
export function requestNotSent(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; isRecord(current) && depth < 4; depth++) {
    if (typeof current.code === "string" && NOT_SENT_CODES.has(current.code)) return true;
    if (typeof current.message === "string" && NOT_SENT_MESSAGE.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
