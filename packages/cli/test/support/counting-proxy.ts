/**
 * A loopback HTTP proxy in front of the server that counts requests, so a test can see what the
 * CLI really sent. Part PUTs (`/api/v1/multipart/parts/{session}/{n}`) can be held: while
 * `holdPartsAfter` is set, a part with a higher number gets no answer (the CLI waits on it), which
 * lets a test interrupt an upload at a known point.
 */
import { createServer, type IncomingMessage, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const PART_PATH = /^\/api\/v1\/multipart\/parts\/[^/]+\/(\d+)(?:\?|$)/;

export interface CountingProxy {
  url: string;
  /** Where requests go, e.g. the server's base URL; set before the first request. */
  target: string;
  /** `METHOD path-without-query` of every request received, in order. */
  requests: string[];
  /** Part numbers of every part PUT received (held ones included). */
  partsReceived: number[];
  /** Part numbers of the part PUTs the server answered with a 2xx. */
  partsStored: number[];
  /** Hold part PUTs numbered above this; undefined forwards everything. */
  holdPartsAfter: number | undefined;
  close(): Promise<void>;
}

export async function startCountingProxy(): Promise<CountingProxy> {
  const held = new Set<IncomingMessage>();
  const proxy: CountingProxy = {
    url: "",
    target: "",
    requests: [],
    partsReceived: [],
    partsStored: [],
    holdPartsAfter: undefined,
    close: () =>
      new Promise<void>((resolve) => {
        for (const req of held) req.socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server: Server = createServer((req, res) => {
    const path = req.url ?? "/";
    proxy.requests.push(`${req.method} ${path.split("?")[0]}`);
    const part = req.method === "PUT" ? PART_PATH.exec(path) : null;
    const partNumber = part ? Number(part[1]) : undefined;
    if (partNumber !== undefined) proxy.partsReceived.push(partNumber);
    if (partNumber !== undefined && proxy.holdPartsAfter !== undefined && partNumber > proxy.holdPartsAfter) {
      held.add(req);
      req.once("close", () => held.delete(req));
      return;
    }
    const upstream = new URL(proxy.target);
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        if (partNumber !== undefined && (answer.statusCode ?? 500) < 300) proxy.partsStored.push(partNumber);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on("error", () => res.destroy());
    req.on("aborted", () => forwarded.destroy());
    req.pipe(forwarded);
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
