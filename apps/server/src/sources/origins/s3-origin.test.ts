import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tableLookup } from "../../../test/support/network-doubles.js";
import { type S3rverHandle, startS3rver } from "../../../test/support/s3rver.js";
import { parseTrustedRanges } from "../../network/trusted-ranges.js";
import { S3StorageDriver } from "../../storage/s3-driver.js";
import { OriginError } from "./origin-error.js";
import type { OriginReadRequest } from "./origin-reader.js";
import { createS3OriginReader } from "./s3-origin.js";

const LOOPBACK = parseTrustedRanges("127.0.0.0/8");
const context = { sourceName: "store", trustedRanges: LOOPBACK };

function readRequest(path: string, extra: Partial<OriginReadRequest> = {}): OriginReadRequest {
  return { path, maxBytes: 1024 * 1024, signal: AbortSignal.timeout(10_000), ...extra };
}

async function failure(promise: Promise<unknown>): Promise<OriginError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OriginError);
  return error as OriginError;
}

describe("s3 origin reader (s3rver on loopback)", () => {
  let s3: S3rverHandle;
  const bytes = Buffer.from(`${"a".repeat(5000)}end`);

  beforeAll(async () => {
    s3 = await startS3rver({ bucket: "origin" });
    const driver = new S3StorageDriver(s3.driverConfig());
    await driver.put("products/shoe one.jpg", Readable.from([bytes]), { contentType: "image/jpeg" });
  }, 30_000);
  afterAll(async () => {
    await s3?.stop();
  });

  const configuration = () => ({
    region: s3.region,
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    access_key: s3.accessKey,
    secret_key: s3.secretKey,
  });

  it("streams an object with its size, type and validators", async () => {
    const reader = createS3OriginReader(configuration(), context);
    const result = await reader.read(readRequest("products/shoe one.jpg"));
    if (result.kind !== "object") throw new Error("expected an object");
    expect(result.object.size).toBe(bytes.length);
    expect(result.object.contentType).toBe("image/jpeg");
    expect(result.object.etag).toMatch(/^"[0-9a-f]+"$/);
    expect(result.object.lastModified).toBeInstanceOf(Date);
    expect(Buffer.compare(await buffer(result.object.body), bytes)).toBe(0);
  });

  it("answers not-modified to a conditional read with the current ETag", async () => {
    const reader = createS3OriginReader(configuration(), context);
    const first = await reader.read(readRequest("products/shoe one.jpg"));
    if (first.kind !== "object") throw new Error("expected an object");
    first.object.body.destroy();
    const again = await reader.read(
      readRequest("products/shoe one.jpg", { validators: { etag: first.object.etag as string } }),
    );
    expect(again.kind).toBe("not-modified");
    const changed = await reader.read(
      readRequest("products/shoe one.jpg", { validators: { etag: '"other"' } }),
    );
    expect(changed.kind).toBe("object");
    if (changed.kind === "object") changed.object.body.destroy();
  });

  it("maps a missing object to not_found", async () => {
    const error = await failure(createS3OriginReader(configuration(), context).read(readRequest("nope.jpg")));
    expect(error.kind).toBe("not_found");
    expect(error.status).toBe(404);
  });

  it("maps refused credentials to denied, naming the source and never the secret", async () => {
    const reader = createS3OriginReader(
      { ...configuration(), access_key: "NOT-A-KEY", secret_key: "wrong-secret-Zq9" },
      context,
    );
    const error = await failure(reader.read(readRequest("products/shoe one.jpg")));
    expect(error.kind).toBe("denied");
    expect(error.status).toBe(502);
    expect(error.message).toContain('Source "store"');
    expect(`${error.message} ${error.detail ?? ""}`).not.toContain("wrong-secret-Zq9");
  });

  it("refuses an object over the size limit before reading its body", async () => {
    const reader = createS3OriginReader(configuration(), context);
    const error = await failure(reader.read(readRequest("products/shoe one.jpg", { maxBytes: 100 })));
    expect(error.kind).toBe("too_large");
    expect(error.status).toBe(413);
  });

  it("turns the deadline into timeout", async () => {
    const reader = createS3OriginReader(configuration(), context);
    const error = await failure(
      reader.read(readRequest("products/shoe one.jpg", { signal: AbortSignal.abort() })),
    );
    expect(error.kind).toBe("timeout");
    expect(error.status).toBe(504);
  });

  it("refuses a loopback endpoint unless the range is trusted", async () => {
    const reader = createS3OriginReader(configuration(), {
      sourceName: "store",
      trustedRanges: parseTrustedRanges(""),
    });
    const error = await failure(reader.read(readRequest("products/shoe one.jpg")));
    expect(error.kind).toBe("forbidden_address");
  });
});

describe("s3 origin reader: the guard decides before any socket", () => {
  it("refuses an endpoint whose name resolves to a private address, dialling nothing", async () => {
    const dialled: unknown[] = [];
    const reader = createS3OriginReader(
      { region: "us-east-1", bucket: "b", endpoint: "http://minio.internal.example:9000" },
      {
        sourceName: "store",
        trustedRanges: LOOPBACK,
        lookup: tableLookup({ "minio.internal.example": "10.0.0.7" }),
        createConnection: (options) => {
          dialled.push(options);
          throw new Error("the test connector never dials");
        },
      },
    );
    const error = await failure(reader.read(readRequest("a.jpg")));
    expect(error.kind).toBe("forbidden_address");
    expect(dialled).toEqual([]);
  });

  it("refuses an IP-literal endpoint in a private range, dialling nothing", async () => {
    const dialled: unknown[] = [];
    const reader = createS3OriginReader(
      { region: "us-east-1", bucket: "b", endpoint: "http://169.254.169.254" },
      {
        sourceName: "store",
        trustedRanges: LOOPBACK,
        createConnection: (options) => {
          dialled.push(options);
          throw new Error("the test connector never dials");
        },
      },
    );
    const error = await failure(reader.read(readRequest("latest/meta-data")));
    expect(error.kind).toBe("forbidden_address");
    expect(dialled).toEqual([]);
  });
});
