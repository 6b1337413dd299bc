import { createServer } from "node:net";

/** A free TCP port on 127.0.0.1 (the OS picks it; closed again before returning). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 2xx, the child dies, or the deadline passes. */
export async function waitForHttp(
  url: string,
  {
    timeoutMs = 60_000,
    alive = () => true,
    describe = () => "",
  }: { timeoutMs?: number; alive?: () => boolean; describe?: () => string } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`process exited before ${url} answered:\n${describe()}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${describe()}`);
}
