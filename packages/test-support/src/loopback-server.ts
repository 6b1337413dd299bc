import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as it reached a loopback server, body read to the end. */
export interface Arrival {
  method: string;
  /** Path and query. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`: each server is its own origin. */
  url: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 (msw cannot show what fetch does with a redirect: it answers
 * inside the process), recording every request before `answer` replies to it.
 */
export async function loopbackServer(
  answer: (arrival: Arrival, response: ServerResponse) => void,
): Promise<LoopbackServer> {
  const arrivals: Arrival[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const arrival = {
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      arrivals.push(arrival);
      answer(arrival, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers every request with `status` and a Location on `origin`, same path and query. */
export function redirectingServer(status: number, origin: string): Promise<LoopbackServer> {
  return loopbackServer((arrival, response) => {
    response.writeHead(status, { location: `${origin}${arrival.path}`, "content-length": "0" });
    response.end();
  });
}

export function replyJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}
