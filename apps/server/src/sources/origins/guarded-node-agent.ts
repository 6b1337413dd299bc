/**
 * A Node `http.Agent` (or `https.Agent`) for vendor clients that take one (minio): every host name
 * is resolved through the SSRF guard's lookup, and an IP-literal host is checked before the agent
 * exists (Node skips `lookup` for literals). The agent does not keep sockets alive: each read
 * makes its own, and nothing outlives the read.
 */
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { Socket } from "node:net";
import { checkRemoteUrl } from "../../network/check-url.js";
import { createGuardedLookup, type LookupAll } from "../../network/guarded-connector.js";
import type { OriginContext } from "./origin-reader.js";

/** Test doubles: a DNS table and a socket factory, so a guard test dials nothing. */
export interface NetworkDoubles {
  lookup?: LookupAll;
  createConnection?: (options: { host?: string; port?: number }) => Socket;
}

/** Throws the guard's RemoteFetchError (REMOTE_URL_FORBIDDEN) for a refused IP literal. */
export function guardedNodeAgent(
  url: URL,
  context: OriginContext & NetworkDoubles,
  label: string,
): HttpAgent {
  checkRemoteUrl(url, { trustedRanges: context.trustedRanges, label });
  const lookup = createGuardedLookup({
    trustedRanges: context.trustedRanges,
    label,
    ...(context.lookup ? { lookup: context.lookup } : {}),
  });
  const agent = url.protocol === "https:" ? new HttpsAgent({ lookup }) : new HttpAgent({ lookup });
  if (context.createConnection) {
    const make = context.createConnection;
    // The lookup runs inside net.connect, so a double has to resolve through it as well.
    agent.createConnection = ((
      options: { host?: string; port?: number },
      callback: (e: Error | null, s?: Socket) => void,
    ) => {
      lookup(options.host ?? "", {}, (error, address) => {
        if (error) return callback(error);
        callback(
          null,
          make({ host: String(address), ...(options.port === undefined ? {} : { port: options.port }) }),
        );
      });
      return undefined;
    }) as unknown as HttpAgent["createConnection"];
  }
  return agent;
}
