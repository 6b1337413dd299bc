/**
 * A loopback TCP proxy that can take a dependency away and give it back: the reliability suites
 * put one between trove-server and PostgreSQL or the S3 store, then `cut()` it for a few seconds.
 * While cut, every open connection is reset and new ones are accepted and reset at once, which
 * is what a server sees when its database or storage restarts or a network path fails. The
 * target is always a loopback address the test started itself.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

export interface TcpFaultProxy {
  /** The port on 127.0.0.1 to point the server at. */
  port: number;
  /** Resets every open connection and refuses (accepts, then resets) new ones until `restore()`. */
  cut(): void;
  restore(): void;
  /** Connections accepted while cut (each was reset): evidence that the outage was felt. */
  refusedWhileCut(): number;
  close(): Promise<void>;
}

export async function startTcpFaultProxy(target: { host: string; port: number }): Promise<TcpFaultProxy> {
  if (!/^(127\.|localhost$|::1$)/.test(target.host)) {
    throw new Error(`the fault proxy only forwards to loopback, not ${target.host}`);
  }
  const open = new Set<Socket>();
  let isCut = false;
  let refused = 0;
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  };
  const server: Server = createServer((client) => {
    track(client);
    if (isCut) {
      refused += 1;
      client.resetAndDestroy();
      return;
    }
    const upstream = connect({ host: target.host, port: target.port });
    track(upstream);
    // Either side failing takes the other down, as a real broken path would.
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.resetAndDestroy());
    client.pipe(upstream);
    upstream.pipe(client);
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    cut() {
      isCut = true;
      for (const socket of open) socket.resetAndDestroy();
    },
    restore() {
      isCut = false;
    },
    refusedWhileCut: () => refused,
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
