import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, waitForHttp } from "../src/ports.js";

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

describe("waitForHttp", () => {
  it("resolves once the address answers 2xx, after answers that are not", async () => {
    let calls = 0;
    const server = createServer((_request, response) => {
      calls++;
      response.writeHead(calls < 3 ? 503 : 200).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => server.close());
    const { port } = server.address() as AddressInfo;
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, { timeoutMs: 10_000 });
    expect(calls).toBe(3);
  });

  it("fails with what the process printed when it is gone", async () => {
    const port = await freePort();
    await expect(
      waitForHttp(`http://127.0.0.1:${port}/`, { alive: () => false, describe: () => "boom: bad config" }),
    ).rejects.toThrow(/process exited before .*\n.*boom: bad config/);
  });

  it("fails after the deadline when nothing listens", async () => {
    const port = await freePort();
    await expect(waitForHttp(`http://127.0.0.1:${port}/`, { timeoutMs: 300 })).rejects.toThrow(
      /did not answer within 300 ms/,
    );
  });
});
