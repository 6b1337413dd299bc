import { createServer } from "node:net";
import { http, passthrough } from "msw";
import type { SetupServer } from "msw/node";

/**
 * A base URL on a loopback port nobody listens on, let through msw to the real network stack, so
 * connecting is genuinely refused; `attempts` counts the fetch calls of `fetch`.
 */
export async function refusedTarget(server: SetupServer) {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as { port: number };
  await new Promise((resolve) => closed.close(resolve));
  const baseUrl = `http://127.0.0.1:${port}`;
  server.use(http.all(`${baseUrl}/*`, () => passthrough()));
  const target = {
    baseUrl,
    attempts: 0,
    fetch: ((input, init) => {
      target.attempts++;
      return fetch(input, init);
    }) as typeof fetch,
  };
  return target;
}
