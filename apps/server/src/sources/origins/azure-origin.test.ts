// The azure reader against Azurite on loopback (trusted for these tests as 127.0.0.0/8), plus a
// plain HTTP server on loopback where Azurite cannot misbehave on purpose (hang, fail). The guard's
// refusals are proven with names resolved from a table and a connector that never opens a socket,
// so a broken guard fails these tests without sending a packet anywhere.
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AzuriteHandle, startAzurite } from "../../../test/support/azurite.js";
import {
  forbidSystemDns,
  loopbackOnlyConnector,
  refusingConnector,
  startTestServer,
  tableLookup,
} from "../../../test/support/network-doubles.js";
import { parseTrustedRanges } from "../../network/trusted-ranges.js";
import { type AzureOriginContext, createAzureOriginReader } from "./azure-origin.js";
import { OriginError } from "./origin-error.js";
import type { OriginObject, OriginReadRequest } from "./origin-reader.js";

const LOOPBACK = parseTrustedRanges("127.0.0.0/8");
const CONTAINER = "media";
const PHOTO = Buffer.from("not really a jpeg, but bytes all the same ".repeat(40));
const PHOTO_PATH = "products/shoe 1/é.jpg";

let azurite: AzuriteHandle;
let restoreDns: () => void = () => {};

beforeAll(async () => {
  azurite = await startAzurite();
  await azurite.putBlob(CONTAINER, PHOTO_PATH, PHOTO, "image/jpeg");
  // Every name below resolves from a table; the system resolver would fail the test.
  restoreDns = forbidSystemDns();
});
afterAll(async () => {
  restoreDns();
  await azurite?.stop();
});

function reader(connectionString: string, context: Partial<AzureOriginContext> = {}, container = CONTAINER) {
  return createAzureOriginReader(
    { connection_string: connectionString, container_name: container },
    { sourceName: "shop", trustedRanges: LOOPBACK, ...context },
  );
}

function readRequest(overrides: Partial<OriginReadRequest> = {}): OriginReadRequest {
  return { path: PHOTO_PATH, maxBytes: 1024 * 1024, signal: new AbortController().signal, ...overrides };
}

async function readObject(promise: Promise<unknown>): Promise<OriginObject> {
  const result = await promise;
  expect(result).toMatchObject({ kind: "object" });
  return (result as { object: OriginObject }).object;
}

async function collect(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function originFailure(promise: Promise<unknown>): Promise<OriginError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the read to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OriginError);
  return error as OriginError;
}

describe("reading a blob", () => {
  it("streams the blob with its size, content type, etag and date (account key)", async () => {
    const object = await readObject(reader(azurite.connectionString()).read(readRequest()));
    expect(object.size).toBe(PHOTO.length);
    expect(object.contentType).toBe("image/jpeg");
    expect(object.etag).toMatch(/^"?0x[0-9A-F]+"?$/);
    expect(object.lastModified).toBeInstanceOf(Date);
    expect((await collect(object.body)).equals(PHOTO)).toBe(true);
  });

  it("reads the same blob with a SAS connection string", async () => {
    const object = await readObject(reader(azurite.sasConnectionString()).read(readRequest()));
    expect((await collect(object.body)).equals(PHOTO)).toBe(true);
  });

  it("answers not-modified to a conditional read with the current etag or date", async () => {
    const source = reader(azurite.connectionString());
    const first = await readObject(source.read(readRequest()));
    first.body.destroy();
    await expect(source.read(readRequest({ validators: { etag: first.etag } }))).resolves.toEqual({
      kind: "not-modified",
    });
    await expect(
      source.read(readRequest({ validators: { lastModified: first.lastModified } })),
    ).resolves.toEqual({ kind: "not-modified" });
    const changed = await readObject(source.read(readRequest({ validators: { etag: '"0x1"' } })));
    expect((await collect(changed.body)).equals(PHOTO)).toBe(true);
  });

  it("a missing blob is not_found; a missing container is denied (configuration)", async () => {
    const missing = await originFailure(
      reader(azurite.connectionString()).read(readRequest({ path: "nope.jpg" })),
    );
    expect(missing).toMatchObject({ kind: "not_found", status: 404 });
    expect(missing.message).toBe('Source "shop": the object does not exist at the origin (no such blob)');
    const noContainer = await originFailure(
      reader(azurite.connectionString(), {}, "no-such-container").read(readRequest()),
    );
    expect(noContainer).toMatchObject({ kind: "denied", status: 502 });
  });
});

describe("credentials", () => {
  it("a wrong account key is denied, and the key appears nowhere in the error", async () => {
    const wrongKey = Buffer.from("this is not the account key of devstoreaccount1").toString("base64");
    const error = await originFailure(
      reader(azurite.connectionString({ accountKey: wrongKey })).read(readRequest()),
    );
    expect(error).toMatchObject({ kind: "denied", status: 502 });
    expect(JSON.stringify([error.message, error.detail, String(error.cause)])).not.toContain(
      wrongKey.slice(0, 12),
    );
  });

  it("a forged SAS signature is denied, and the signature appears nowhere in the error", async () => {
    const forged = azurite.sasConnectionString().replace(/sig=[^&;]+/, "sig=Zm9yZ2VkLXNpZ25hdHVyZQ%3D%3D");
    const error = await originFailure(reader(forged).read(readRequest()));
    expect(error).toMatchObject({ kind: "denied" });
    expect(JSON.stringify([error.message, error.detail, String(error.cause)])).not.toContain(
      "Zm9yZ2VkLXNpZ25hdHVyZQ",
    );
  });

  it("a connection string that does not parse is denied without echoing it", async () => {
    const source = reader("AccountName=x;AccountKey=s3cr3t-value;no endpoint here");
    const error = await originFailure(source.read(readRequest()));
    expect(error).toMatchObject({ kind: "denied" });
    expect(error.message).toBe(
      `Source "shop": the origin refused Trove's credentials (connection string is not valid)`,
    );
    expect(JSON.stringify([error.message, error.detail])).not.toContain("s3cr3t");
  });
});

describe("limits and deadlines", () => {
  it("a blob larger than maxBytes fails with too_large before its body is read", async () => {
    const error = await originFailure(
      reader(azurite.connectionString()).read(readRequest({ maxBytes: PHOTO.length - 1 })),
    );
    expect(error).toMatchObject({ kind: "too_large", status: 413 });
    expect(error.message).toContain(`${PHOTO.length} bytes`);
  });

  it("a server that never answers fails with timeout when the signal aborts", async () => {
    const hanging = await startTestServer(() => {});
    try {
      const controller = new AbortController();
      const source = reader(azurite.connectionString({ endpoint: `${hanging.origin}/devstoreaccount1` }));
      const pending = originFailure(source.read(readRequest({ signal: controller.signal })));
      await waitFor(() => hanging.requests.length === 1);
      controller.abort();
      expect(await pending).toMatchObject({ kind: "timeout", status: 504 });
    } finally {
      await hanging.close();
    }
  });

  it("a body that stalls fails the body stream with timeout when the signal aborts", async () => {
    const stalling = await startTestServer((_req, res) => {
      res.writeHead(200, { "content-length": "100", etag: '"0x8D1"', "content-type": "image/jpeg" });
      res.write(Buffer.alloc(10));
    });
    try {
      const controller = new AbortController();
      const source = reader(azurite.connectionString({ endpoint: `${stalling.origin}/devstoreaccount1` }));
      const object = await readObject(source.read(readRequest({ signal: controller.signal })));
      const body = collect(object.body).catch((e: unknown) => e);
      controller.abort();
      expect(await body).toMatchObject({ name: "OriginError", kind: "timeout" });
    } finally {
      await stalling.close();
    }
  });

  it("a server error is unavailable", async () => {
    const failing = await startTestServer((_req, res) => res.writeHead(503).end());
    try {
      const source = reader(azurite.connectionString({ endpoint: `${failing.origin}/devstoreaccount1` }));
      expect(await originFailure(source.read(readRequest()))).toMatchObject({ kind: "unavailable" });
      // One request: no retries spend the delivery deadline.
      expect(failing.requests).toHaveLength(1);
    } finally {
      await failing.close();
    }
  });
});

describe("the SSRF guard", () => {
  it("refuses an endpoint name that resolves to a private address, without dialling it", async () => {
    const lookup = tableLookup({ "evil.example": "10.0.0.1" });
    const connect = refusingConnector();
    const source = reader(azurite.connectionString({ endpoint: "https://evil.example/devstoreaccount1" }), {
      lookup,
      connect,
    });
    const error = await originFailure(source.read(readRequest()));
    expect(error).toMatchObject({ kind: "forbidden_address", status: 502 });
    expect(error.message).not.toContain("10.0.0.1");
    expect(lookup.calls).toEqual(["evil.example"]);
    expect(connect.calls).toEqual([]);
  });

  it("refuses a private IP literal endpoint before any lookup or dial (SAS connection string too)", async () => {
    const lookup = tableLookup({});
    const connect = refusingConnector();
    const source = reader(
      azurite.sasConnectionString({ endpoint: "http://169.254.169.254/devstoreaccount1" }),
      {
        lookup,
        connect,
      },
    );
    expect(await originFailure(source.read(readRequest()))).toMatchObject({ kind: "forbidden_address" });
    expect(lookup.calls).toEqual([]);
    expect(connect.calls).toEqual([]);
  });

  it("refuses loopback (a real Azurite) unless the operator trusts it", async () => {
    const source = reader(azurite.connectionString(), { trustedRanges: parseTrustedRanges("") });
    expect(await originFailure(source.read(readRequest()))).toMatchObject({ kind: "forbidden_address" });
  });

  it("dials exactly the vetted address of a named endpoint", async () => {
    const lookup = tableLookup({ "blob.storage.test": "127.0.0.1" });
    const connect = loopbackOnlyConnector();
    const source = reader(
      azurite.connectionString({ endpoint: `http://blob.storage.test:${azurite.port}/devstoreaccount1` }),
      { lookup, connect },
    );
    const object = await readObject(source.read(readRequest()));
    expect((await collect(object.body)).equals(PHOTO)).toBe(true);
    expect(connect.calls.map((call) => call.hostname)).toEqual(["127.0.0.1"]);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
