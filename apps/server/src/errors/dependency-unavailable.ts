/**
 * Recognises a failure caused by a dependency being out of reach (PostgreSQL, the S3 store, a
 * remote disk), as opposed to a bug: the errors plugin answers those 503 with Retry-After instead
 * of 500, so clients know that trying again shortly is the right move, and upload registration
 * keeps the objects it wrote, because when the database connection drops mid-commit nobody knows
 * whether the row was committed (the orphan sweeper removes them later if it was not).
 */

/** Socket-level failures: refused, reset, timed out, unreachable. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * Prisma's connection errors: P1001 can't reach the server, P1002 server timed out, P1008
 * operation timed out, P1017 server closed the connection, P2024 connection pool timeout, P2028
 * a transaction that could not start (or finish) in time: the database is out of reach for this
 * request, and the transaction was rolled back.
 */
const PRISMA_CONNECTION_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2028"]);

/**
 * Kinds of Prisma's DriverAdapterError (its `cause.kind`, also its message) that mean the database
 * is out of reach; it surfaces unwrapped from some calls (a transaction's own queries).
 */
const ADAPTER_CONNECTION_KINDS = new Set([
  "ConnectionClosed",
  "DatabaseNotReachable",
  "SocketTimeout",
  "TooManyConnections",
  "TransactionAlreadyClosed",
]);

/** How drivers word a lost connection where they give no code (pg, raw queries through Prisma's P2010). */
const CONNECTION_LOST =
  /Connection terminated|Server has closed the connection|Can't reach database server|timeout exceeded when trying to connect|socket hang up/i;

/** Deep enough for Prisma → driver adapter → pg → socket; bounded against cyclic causes. */
const MAX_DEPTH = 6;

function fieldOf(error: object, name: string): unknown {
  return (error as Record<string, unknown>)[name];
}

export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > MAX_DEPTH) return false;
  const code = fieldOf(error, "code");
  if (typeof code === "string" && (NETWORK_CODES.has(code) || PRISMA_CONNECTION_CODES.has(code))) return true;
  const kind = fieldOf(error, "kind");
  if (typeof kind === "string" && ADAPTER_CONNECTION_KINDS.has(kind)) return true;
  const message = fieldOf(error, "message");
  if (
    typeof message === "string" &&
    (CONNECTION_LOST.test(message) || ADAPTER_CONNECTION_KINDS.has(message))
  ) {
    return true;
  }
  if (error instanceof AggregateError && error.errors.some((e) => isDependencyUnavailable(e, depth + 1))) {
    return true;
  }
  return isDependencyUnavailable(fieldOf(error, "cause"), depth + 1);
}

/** Seconds a client is told to wait after a dependency failure (Retry-After). */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;
