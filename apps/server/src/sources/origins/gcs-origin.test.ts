// The google_cloud reader against a loopback fake of the JSON API and the token endpoint
// (test/support/fake-gcs.ts), which verifies the JWT signature for real. Addresses outside loopback
// are proven refused with a table resolver and recording connectors: nothing leaves the machine.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeGcs, startFakeGcs } from "../../../test/support/fake-gcs.js";
import {
  forbidSystemDns,
  loopbackOnlyConnector,
  refusingConnector,
  tableLookup,
} from "../../../test/support/network-doubles.js";
import { parseTrustedRanges } from "../../network/index.js";
import { createGcsOriginReader, type GcsOriginContext, type GcsOriginReader } from "./gcs-origin.js";
import { OriginError } from "./origin-error.js";
import type { OriginObject, OriginReadRequest } from "./origin-reader.js";

const LOOPBACK = parseTrustedRanges("127.0.0.0/8");
const SOURCE = "gcs-photos";

let restoreDns: () => void = () => {};
let gcs: FakeGcs;
const readers: GcsOriginReader[] = [];

beforeAll(async () => {
  restoreDns = forbidSystemDns();
  gcs = await startFakeGcs();
});
afterAll(async () => {
  restoreDns();
  await gcs.stop();
});
afterEach(async () => {
  gcs.hang = false;
  gcs.onRequest = undefined;
  gcs.disconnectAll();
  await Promise.all(readers.splice(0).map((reader) => reader.close()));
});

function reader(json = gcs.serviceAccountJson(), context: Partial<GcsOriginContext> = {}): GcsOriginReader {
  const created = createGcsOriginReader(
    { service_account_json: json, bucket_name: gcs.bucket },
    { sourceName: SOURCE, trustedRanges: LOOPBACK, apiEndpoint: gcs.endpoint, ...context },
  );
  readers.push(created);
  return created;
}

function readOf(path: string, extra: Partial<OriginReadRequest> = {}): OriginReadRequest {
  return { path, maxBytes: 1024 * 1024, signal: new AbortController().signal, ...extra };
}

async function readObject(promise: ReturnType<GcsOriginReader["read"]>): Promise<OriginObject> {
  const result = await promise;
  if (result.kind !== "object") throw new Error(`expected an object, got ${result.kind}`);
  return result.object;
}

async function collect(object: OriginObject): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
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

/** The private key's base64 lines and the PEM armour: none may appear in a message or detail. */
function expectNoKeyMaterial(error: OriginError, json: string): void {
  const pem = (JSON.parse(json) as { private_key: string }).private_key;
  const text = `${error.message}\n${error.detail ?? ""}`;
  expect(text).not.toContain("PRIVATE KEY");
  for (const line of pem.split("\n").filter((l) => l.length > 20)) expect(text).not.toContain(line);
}

describe("reading objects", () => {
  it("streams an object with its size, type, ETag and Last-Modified; the path is one encoded name", async () => {
    const bytes = Buffer.from("GIF89a: a small photo, with bytes \u00e9\u00e8");
    const stored = gcs.putObject("products/summer shoe.gif", bytes, { contentType: "image/gif" });
    const object = await readObject(reader().read(readOf("products/summer shoe.gif")));
    expect(object).toMatchObject({
      size: bytes.length,
      contentType: "image/gif",
      etag: `"${stored.etag}"`,
      lastModified: stored.updated,
    });
    expect(await collect(object)).toEqual(bytes);
    expect(gcs.requests.at(-1)?.url).toBe(
      `/storage/v1/b/${gcs.bucket}/o/products%2Fsummer%20shoe.gif?alt=media`,
    );
  });

  it("fetches one token for many reads of one reader", async () => {
    gcs.putObject("a.txt", "a");
    const before = gcs.tokensIssued;
    const shared = reader();
    const objects = await Promise.all([1, 2, 3].map(() => readObject(shared.read(readOf("a.txt")))));
    await readObject(shared.read(readOf("a.txt")));
    for (const object of objects) expect((await collect(object)).toString()).toBe("a");
    expect(gcs.tokensIssued - before).toBe(1);
  });

  it("answers not-modified when the cached ETag is current, and the object once it changed", async () => {
    const first = gcs.putObject("logo.png", "v1", { contentType: "image/png" });
    const current = reader();
    const etag = `"${first.etag}"`;
    expect(await current.read(readOf("logo.png", { validators: { etag } }))).toEqual({
      kind: "not-modified",
    });
    expect(gcs.requests.at(-1)?.ifNoneMatch).toBe(etag);
    gcs.putObject("logo.png", "v2", { contentType: "image/png" });
    const changed = await readObject(current.read(readOf("logo.png", { validators: { etag } })));
    expect((await collect(changed)).toString()).toBe("v2");
  });

  it("revalidates with Last-Modified alone (If-Modified-Since)", async () => {
    const stored = gcs.putObject("old.css", "body{}");
    const result = await reader().read(readOf("old.css", { validators: { lastModified: stored.updated } }));
    expect(result).toEqual({ kind: "not-modified" });
    expect(gcs.requests.at(-1)?.ifModifiedSince).toBe(stored.updated.toUTCString());
  });

  it("maps a missing object to not_found", async () => {
    const error = await originFailure(reader().read(readOf("nothing/here.jpg")));
    expect(error).toMatchObject({ kind: "not_found", status: 404 });
    expect(error.message).toContain(`Source "${SOURCE}"`);
  });
});

describe("credentials", () => {
  it("a key the token endpoint does not know is denied, and the message holds no key material", async () => {
    gcs.putObject("secret.jpg", "x");
    const json = gcs.wrongKeyServiceAccountJson();
    const error = await originFailure(reader(json).read(readOf("secret.jpg")));
    expect(error).toMatchObject({ kind: "denied", status: 502 });
    expectNoKeyMaterial(error, json);
    expect(gcs.requests.at(-1)).toMatchObject({ method: "POST", url: "/token" });
  });

  it.each([
    ["not JSON", (json: string) => json.slice(0, -10), "not valid JSON"],
    [
      "no private_key",
      (json: string) => JSON.stringify({ ...JSON.parse(json), private_key: undefined }),
      "no private_key",
    ],
    [
      "no client_email",
      (json: string) => JSON.stringify({ ...JSON.parse(json), client_email: "" }),
      "no client_email",
    ],
    [
      "a private_key that is not PEM",
      (json: string) => {
        const parsed = JSON.parse(json) as { private_key: string };
        return JSON.stringify({
          ...parsed,
          private_key: parsed.private_key.replace(/[A-Za-z]{8}/, "!!!!!!!!"),
        });
      },
      "not a PEM private key",
    ],
  ])("a key file with %s is denied without quoting it, and nothing is sent", async (_what, mangle, cause) => {
    const json = mangle(gcs.serviceAccountJson());
    const seen = gcs.requests.length;
    const error = await originFailure(reader(json).read(readOf("a.txt")));
    expect(error.kind).toBe("denied");
    expect(error.message).toContain(cause);
    expect(error.message).not.toContain(gcs.clientEmail);
    if (json.includes("PRIVATE KEY")) expectNoKeyMaterial(error, gcs.serviceAccountJson());
    expect(gcs.requests.length).toBe(seen);
  });

  it("a token the API refuses is denied", async () => {
    gcs.putObject("a.txt", "a");
    const refused = await startFakeGcs({ clientEmail: gcs.clientEmail });
    try {
      // Tokens come from `gcs`, the API is `refused`, which issued none of them.
      const mixed = reader(gcs.serviceAccountJson(), { apiEndpoint: refused.endpoint });
      const error = await originFailure(mixed.read(readOf("a.txt")));
      expect(error).toMatchObject({ kind: "denied" });
      expect(error.message).toContain("401");
      expect(error.message).not.toMatch(/ya29/);
    } finally {
      await refused.stop();
    }
  });
});

describe("limits", () => {
  it("a server that never answers fails with timeout when the signal aborts", async () => {
    gcs.putObject("slow.jpg", "x");
    const current = reader();
    await readObject(current.read(readOf("slow.jpg"))).then(collect); // token cached
    const controller = new AbortController();
    gcs.hang = true;
    gcs.onRequest = () => controller.abort(new Error("delivery deadline"));
    const error = await originFailure(current.read(readOf("slow.jpg", { signal: controller.signal })));
    expect(error).toMatchObject({ kind: "timeout", status: 504 });
  });

  it("a token endpoint that never answers fails with timeout at the read's deadline", async () => {
    const controller = new AbortController();
    gcs.hang = true;
    gcs.onRequest = () => controller.abort(new Error("delivery deadline"));
    const error = await originFailure(reader().read(readOf("a.txt", { signal: controller.signal })));
    expect(error).toMatchObject({ kind: "timeout" });
    expect(error.message).toContain("token endpoint");
  });

  it("a body that stalls errors with timeout when the signal aborts mid-stream", async () => {
    gcs.putObject("stall.bin", Buffer.alloc(4096, 7), { stallAfter: 1024 });
    const controller = new AbortController();
    const object = await readObject(reader().read(readOf("stall.bin", { signal: controller.signal })));
    const first = await new Promise<Buffer>((resolve) => object.body.once("data", resolve));
    expect(first.length).toBeGreaterThan(0);
    controller.abort(new Error("delivery deadline"));
    const error = await originFailure(collect(object));
    expect(error).toMatchObject({ kind: "timeout" });
  });

  it("an object whose announced size is over maxBytes is too_large before the body", async () => {
    gcs.putObject("big.bin", Buffer.alloc(2048));
    const error = await originFailure(reader().read(readOf("big.bin", { maxBytes: 2047 })));
    expect(error).toMatchObject({ kind: "too_large", status: 413 });
  });

  it("an object without a size that streams past maxBytes destroys the body with too_large", async () => {
    gcs.putObject("chunked.bin", Buffer.alloc(64 * 1024, 1), { chunked: true });
    const object = await readObject(reader().read(readOf("chunked.bin", { maxBytes: 1000 })));
    expect(object.size).toBeUndefined();
    const error = await originFailure(collect(object));
    expect(error).toMatchObject({ kind: "too_large" });
  });

  it("exactly maxBytes is allowed", async () => {
    gcs.putObject("exact.bin", Buffer.alloc(1000, 2), { chunked: true });
    const object = await readObject(reader().read(readOf("exact.bin", { maxBytes: 1000 })));
    expect((await collect(object)).length).toBe(1000);
  });
});

describe("address guard", () => {
  it("a storage endpoint that resolves to a private address is refused; only the loopback token endpoint is dialled", async () => {
    const lookup = tableLookup({ "storage.example": "10.0.0.1" });
    const connect = loopbackOnlyConnector();
    const guarded = reader(gcs.serviceAccountJson(), {
      apiEndpoint: "http://storage.example",
      lookup,
      connect,
    });
    // The key's token_uri is the fake's (127.0.0.1, trusted); the API host is not.
    const error = await originFailure(guarded.read(readOf("a.txt")));
    expect(error).toMatchObject({ kind: "forbidden_address", status: 502 });
    expect(error.message).not.toContain("10.0.0.1");
    expect(error.detail).toContain("10.0.0.1");
    expect(lookup.calls).toEqual(["storage.example"]);
    expect(connect.calls.map((call) => call.hostname)).toEqual(["127.0.0.1"]);
  });

  it("a token_uri that resolves to the metadata address is refused before any dial", async () => {
    const lookup = tableLookup({ "tokens.example": "169.254.169.254" });
    const connect = refusingConnector();
    const json = gcs.serviceAccountJson({ token_uri: "http://tokens.example/token" });
    const error = await originFailure(reader(json, { lookup, connect }).read(readOf("a.txt")));
    expect(error).toMatchObject({ kind: "forbidden_address" });
    expect(error.message).toContain("token endpoint");
    expect(connect.calls).toEqual([]);
  });

  it("an IP-literal private endpoint is refused without a lookup", async () => {
    const lookup = tableLookup({});
    const connect = refusingConnector();
    const error = await originFailure(
      reader(gcs.serviceAccountJson({ token_uri: "http://10.1.2.3/token" }), {
        apiEndpoint: "http://10.1.2.3",
        lookup,
        connect,
      }).read(readOf("a.txt")),
    );
    expect(error.kind).toBe("forbidden_address");
    expect(lookup.calls).toEqual([]);
    expect(connect.calls).toEqual([]);
  });

  it("without an API endpoint setting, the key's token_uri is ignored for Google's token endpoint", async () => {
    const lookup = tableLookup({ "oauth2.googleapis.com": "142.250.74.10", "evil.example": "93.184.216.34" });
    const connect = refusingConnector();
    const json = gcs.serviceAccountJson({ token_uri: "https://evil.example/collect" });
    const pinned = createGcsOriginReader(
      { service_account_json: json, bucket_name: gcs.bucket },
      { sourceName: SOURCE, trustedRanges: LOOPBACK, lookup, connect },
    );
    readers.push(pinned);
    const error = await originFailure(pinned.read(readOf("a.txt")));
    expect(error.kind).toBe("unavailable");
    expect(lookup.calls).toEqual(["oauth2.googleapis.com"]);
    expect(connect.calls).toMatchObject([
      { hostname: "142.250.74.10", servername: "oauth2.googleapis.com", protocol: "https:" },
    ]);
  });
});
