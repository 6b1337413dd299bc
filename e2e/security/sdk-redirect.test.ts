/**
 * Security (issue #13): the SDK never hands its API key to another host. The real SDK, as an app
 * imports it, is pointed at a loopback server that redirects every request to a second loopback
 * origin, which records every header it gets. Each redirect status, each transport (ky behind
 * createClient, plain fetch behind createUploadClient), API calls and uploads alike: the call
 * rejects with REDIRECT_REFUSED and the second origin never sees the key.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient, createMultipartClient, createUploadClient, TroveError } from "@trove/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const KEY = "trove_sk_e2e_redirect_secret";
const STATUSES = [301, 302, 303, 307, 308];

interface Origin {
  url: string;
  /** The headers of every request that arrived, in order. */
  seen: IncomingHttpHeaders[];
  server: Server;
}

async function origin(answer: (path: string) => { status: number; headers: Record<string, string> }) {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    request.resume();
    request.on("end", () => {
      const { status, headers } = answer(request.url ?? "/");
      // A 2xx body the SDK would accept if it got this far: only the missing key can fail it.
      response.writeHead(status, headers).end(status === 200 ? '{"success":true,"data":[]}' : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, server } satisfies Origin;
}

const closeOrigin = ({ server }: Origin) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

let recorder: Origin;

beforeAll(async () => {
  recorder = await origin(() => ({ status: 200, headers: { "content-type": "application/json" } }));
});

afterAll(() => closeOrigin(recorder));

describe.each(STATUSES)("every request answered %i to another loopback origin", (status) => {
  let redirector: Origin;

  beforeAll(async () => {
    redirector = await origin((path) => ({ status, headers: { location: `${recorder.url}${path}` } }));
    recorder.seen.length = 0;
  });

  afterAll(() => closeOrigin(redirector));

  it("plain fetch would hand the key over (the trap works)", async () => {
    await fetch(`${redirector.url}/api/v1/files`, { headers: { "x-api-key": KEY } });
    expect(recorder.seen.at(-1)?.["x-api-key"]).toBe(KEY);
    recorder.seen.length = 0;
    redirector.seen.length = 0;
  });

  it("the SDK rejects with REDIRECT_REFUSED and the other origin never sees the key", async () => {
    const full = createClient({ apiKey: KEY, baseUrl: redirector.url, maxRetryDelay: 0 });
    const upload = createUploadClient({ apiKey: KEY, baseUrl: redirector.url, maxRetryDelay: 0 });
    const multipart = createMultipartClient({ apiKey: KEY, baseUrl: redirector.url, maxRetryDelay: 0 });
    // A direct upload from Node streams its form body under `redirect: "error"` (fetch copies the
    // body for any other mode): fetch refuses the redirect itself and hands over no status.
    const direct = undefined;
    const calls: Array<[() => PromiseLike<unknown>, number | undefined]> = [
      [() => full.files.list(), status],
      [() => full.folders.create({ name: "docs" }), status],
      [() => full.files.delete("1001"), status],
      [() => full.upload(new Blob(["hello"]), { fileName: "a.txt" }), direct],
      [() => full.upload(new Blob(["hello"]), { fileName: "b.bin", multipartThreshold: 1 }), status],
      [() => upload.upload(new Blob(["hello"]), { fileName: "c.txt" }), direct],
      [() => upload.uploadFromUrl("https://example.com/cat.png"), status],
      [() => multipart.start({ file_name: "d.bin", size: 5, format: "bin" }), status],
    ];
    for (const [call, expected] of calls) {
      const error = await call().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(TroveError);
      expect(error).toMatchObject({ code: "REDIRECT_REFUSED" });
      expect((error as TroveError).status).toBe(expected);
    }
    // The key reached the host it was meant for, once per call (a redirect is not retried)...
    expect(redirector.seen.map((headers) => headers["x-api-key"])).toEqual(calls.map(() => KEY));
    // ...and nothing, with or without it, reached the other one.
    expect(recorder.seen.filter((headers) => JSON.stringify(headers).includes(KEY))).toEqual([]);
    expect(recorder.seen).toEqual([]);
  });
});
