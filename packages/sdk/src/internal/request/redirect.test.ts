import {
  type Arrival,
  type LoopbackServer,
  loopbackServer,
  redirectingServer,
  replyJson,
} from "@trove/test-support/loopback-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { FakeXhr } from "../../../test/support/fake-xhr.js";
import {
  envelopeUploadResponse,
  multipartComplete,
  multipartSession,
} from "../../../test/support/fixtures.js";
import * as node from "../../node.js";
import type { ClientOptions } from "../client/client-options.js";
import { createClient } from "../client/create-client.js";
import { createMultipartClient } from "../client/create-multipart-client.js";
import { createUploadClient } from "../client/create-upload-client.js";
import { TroveError } from "../errors.js";

/**
 * Every request that carries the API key, from every client, meets a real redirect to another
 * loopback origin (two node:http servers): it must fail with REDIRECT_REFUSED and nothing may
 * reach the other origin. Part PUTs, which carry no key, may follow, without any secret header.
 */
const KEY = "trove_sk_redirect_test";
const CALLER_SECRET = "caller-secret-value";
const STATUSES = [301, 302, 303, 307, 308];

const options = (baseUrl: string, extra: Partial<ClientOptions> = {}): ClientOptions => ({
  apiKey: KEY,
  baseUrl,
  headers: { "x-caller-secret": CALLER_SECRET },
  maxRetryDelay: 0,
  ...extra,
});

/** Every client the package exports, by transport: ky (createClient) or fetch (createUploadClient). */
const UPLOAD_CLIENTS = {
  "createClient (ky)": (baseUrl: string, extra?: Partial<ClientOptions>) =>
    createClient(options(baseUrl, extra)),
  // The low-level multipart calls of an upload-only client come from createMultipartClient.
  "createUploadClient (fetch)": (baseUrl: string, extra?: Partial<ClientOptions>) => ({
    ...createUploadClient(options(baseUrl, extra)),
    multipart: createMultipartClient(options(baseUrl, extra)),
  }),
  "node createClient (ky)": (baseUrl: string, extra?: Partial<ClientOptions>) =>
    node.createClient(options(baseUrl, extra)),
  "node createUploadClient (fetch)": (baseUrl: string, extra?: Partial<ClientOptions>) => ({
    ...node.createUploadClient(options(baseUrl, extra)),
    multipart: node.createMultipartClient(options(baseUrl, extra)),
  }),
};

/** What no request may show the other origin. */
function secretsIn(arrivals: Arrival[]): string[] {
  return arrivals.flatMap((arrival) =>
    Object.entries(arrival.headers)
      .filter(([, value]) => String(value).includes(KEY) || String(value).includes(CALLER_SECRET))
      .map(([name]) => `${arrival.method} ${arrival.path}: ${name}`),
  );
}

async function refused(call: PromiseLike<unknown>, status: number | undefined): Promise<void> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TroveError);
  expect(error).toMatchObject({ code: "REDIRECT_REFUSED", status });
}

let other: LoopbackServer;

beforeAll(async () => {
  other = await loopbackServer((_, response) => replyJson(response, 200, envelopeUploadResponse));
});

afterAll(() => other.close());

afterEach(() => {
  other.arrivals.length = 0;
  vi.unstubAllGlobals();
  FakeXhr.instances = [];
});

describe.each(STATUSES)("HTTP %i to another origin", (status) => {
  let redirector: LoopbackServer;

  beforeAll(async () => {
    redirector = await redirectingServer(status, other.url);
  });

  afterAll(() => redirector.close());

  afterEach(() => {
    redirector.arrivals.length = 0;
  });

  it("without the SDK, fetch carries the key there (the attack is real)", async () => {
    await fetch(`${redirector.url}/api/v1/files`, { headers: { "x-api-key": KEY } });
    expect(other.arrivals).toHaveLength(1);
    expect(other.arrivals[0]?.headers["x-api-key"]).toBe(KEY);
  });

  it.each(Object.entries(UPLOAD_CLIENTS))(
    "%s: every upload request is refused, once",
    async (name, create) => {
      const client = create(redirector.url, { multipartThreshold: 4 });
      // Node's direct upload streams its body under `redirect: "error"` (../node/send-streamed.ts): fetch
      // refuses the redirect without handing over its status.
      const directStatus = name.startsWith("node") ? undefined : status;
      await refused(client.upload(new Blob(["abc"]), { fileName: "a.txt" }), directStatus);
      // With progress asked for and XMLHttpRequest present, as in a browser: still fetch.
      vi.stubGlobal("XMLHttpRequest", FakeXhr);
      await refused(
        client.upload(new Blob(["abc"]), { fileName: "a.txt", onProgress: () => {} }),
        directStatus,
      );
      await refused(client.upload(new Blob(["abcdefgh"]), { fileName: "big.bin" }), status);
      await refused(client.uploadFromUrl("https://example.com/a.png"), status);
      await refused(client.multipart.start({ file_name: "a.bin", size: 10, format: "bin" }), status);
      await refused(client.multipart.complete("sess_1"), status);

      expect(FakeXhr.instances).toEqual([]);
      // One attempt each: a redirect is not retried, not even by GET-style idempotent calls.
      expect(redirector.arrivals.map((arrival) => arrival.method)).toEqual(Array(6).fill("POST"));
      expect(redirector.arrivals.every((arrival) => arrival.headers["x-api-key"] === KEY)).toBe(true);
      expect(other.arrivals).toEqual([]);
    },
  );

  it("createClient: management calls are refused too", async () => {
    const client = createClient(options(redirector.url, { maxRetries: 3 }));
    await refused(client.files.list(), status);
    await refused(client.files.get("1001"), status);
    await refused(client.folders.create({ name: "x" }), status);
    await refused(client.files.delete("1001"), status);
    expect(redirector.arrivals.map((arrival) => arrival.method)).toEqual(["GET", "GET", "POST", "DELETE"]);
    expect(other.arrivals).toEqual([]);
  });
});

describe("a browser's opaque redirect (status 0, no Location)", () => {
  it.each(Object.entries(UPLOAD_CLIENTS))(
    "%s: asks fetch not to follow, and refuses the answer",
    async (name, create) => {
      const modes: string[] = [];
      const opaque: typeof fetch = async (input, init) => {
        modes.push(init?.redirect ?? (input instanceof Request ? input.redirect : "follow"));
        // A browser sends the body before it meets the redirect, so this reads it too. Left
        // unread, ky cancels it at once, and on Node 24+ undici's FormData writer, still running,
        // throws an unhandled rejection (nodejs/undici#5835): a fake no transport behaves like.
        await new Request(input, init).arrayBuffer();
        return Response.error();
      };
      const client = create("https://api.trove.test", { fetch: opaque });
      await refused(client.uploadFromUrl("https://example.com/a.png"), 0);
      await refused(client.upload(new Blob(["abc"]), { fileName: "a.txt" }), 0);
      // Node's direct upload: "error", the mode in which fetch does not hold the body (../node/send-streamed.ts).
      expect(modes).toEqual(["manual", name.startsWith("node") ? "error" : "manual"]);
    },
  );
});

describe.each([307, 308])("a part PUT answered %i (storage moving it elsewhere)", (status) => {
  const PART = 4;
  const SIZE = 10;
  let storage: LoopbackServer;
  let redirector: LoopbackServer;
  let api: LoopbackServer;

  beforeAll(async () => {
    storage = await loopbackServer((arrival, response) => {
      response.writeHead(200, { etag: `"${arrival.body.byteLength}"`, "content-length": "0" });
      response.end();
    });
    redirector = await redirectingServer(status, storage.url);
    const session = multipartSession(3, PART, {
      parts: [1, 2, 3].map((part) => `${redirector.url}/parts/sess_1/${part}?sig=abc`),
    });
    api = await loopbackServer((arrival, response) =>
      arrival.path.endsWith("/start")
        ? replyJson(response, 200, session)
        : replyJson(response, 200, multipartComplete(SIZE)),
    );
  });

  afterAll(async () => {
    await Promise.all([storage.close(), redirector.close(), api.close()]);
  });

  afterEach(() => {
    for (const server of [storage, redirector, api]) server.arrivals.length = 0;
  });

  it.each([
    ["fetch", false],
    ["XMLHttpRequest", true],
  ])("through %s: follows with the part bytes and no secret header", async (_, xhr) => {
    if (xhr) vi.stubGlobal("XMLHttpRequest", FakeXhr);
    const client = createUploadClient(options(api.url, { multipartThreshold: 1 }));
    // A Blob: Node 20's fetch cannot send a Uint8Array body again after a 307/308 (its own copy
    // of the bytes is detached by then), a failure of its own, not of what it sends.
    const result = await client.upload(new Blob([new Uint8Array(SIZE).fill(7)]), {
      fileName: "big.bin",
      onProgress: () => {},
    });
    expect(result).toMatchObject({ file_no: "2001" });
    expect(FakeXhr.instances).toHaveLength(xhr ? 3 : 0);
    expect(storage.arrivals.map((arrival) => [arrival.method, arrival.body.byteLength]).sort()).toEqual([
      ["PUT", 2],
      ["PUT", 4],
      ["PUT", 4],
    ]);
    expect(secretsIn([...redirector.arrivals, ...storage.arrivals])).toEqual([]);
    // The key went to the API, and only there.
    expect(api.arrivals.every((arrival) => arrival.headers["x-api-key"] === KEY)).toBe(true);
  });
});
