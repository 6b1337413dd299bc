// The s3 origin reader against a real MinIO (or any S3), run when MINIO_ENDPOINT is set:
//   MINIO_ENDPOINT=http://127.0.0.1:9000 MINIO_ACCESS_KEY=... MINIO_SECRET_KEY=... [MINIO_BUCKET] [MINIO_REGION]
// s3rver checks the access key but not the SigV4 signature; a real MinIO checks both.
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { beforeAll, describe, expect, it } from "vitest";
import { parseTrustedRanges } from "../../network/trusted-ranges.js";
import { parseS3Endpoint, S3StorageDriver } from "../../storage/s3-driver.js";
import { OriginError } from "./origin-error.js";
import type { OriginReadRequest } from "./origin-reader.js";
import { createS3OriginReader } from "./s3-origin.js";

// A MinIO on another host would need its range trusted too; loopback is the usual test setup.
const context = { sourceName: "store", trustedRanges: parseTrustedRanges("127.0.0.0/8,::1/128") };

function readRequest(path: string, extra: Partial<OriginReadRequest> = {}): OriginReadRequest {
  return { path, maxBytes: 1024 * 1024, signal: AbortSignal.timeout(10_000), ...extra };
}

const minioEndpoint = process.env.MINIO_ENDPOINT;
describe("s3 origin reader on a real MinIO", () => {
  const minio = {
    region: process.env.MINIO_REGION ?? "us-east-1",
    bucket: process.env.MINIO_BUCKET ?? "trove-test",
    endpoint: minioEndpoint ?? "",
    access_key: process.env.MINIO_ACCESS_KEY ?? "minioadmin",
    secret_key: process.env.MINIO_SECRET_KEY ?? "minioadmin",
  };
  const key = `trove-origin-test-${Date.now()}.bin`;
  const bytes = Buffer.from("origin bytes on minio");

  beforeAll(async () => {
    const driver = new S3StorageDriver({
      ...parseS3Endpoint(minio.endpoint),
      region: minio.region,
      bucket: minio.bucket,
      accessKey: minio.access_key,
      secretKey: minio.secret_key,
      pathStyle: true,
    });
    await driver.ensureBucket({ create: true });
    await driver.put(key, Readable.from([bytes]));
  });

  it("reads, revalidates, and refuses a wrong secret as denied", async () => {
    const reader = createS3OriginReader(minio, context);
    const result = await reader.read(readRequest(key));
    if (result.kind !== "object") throw new Error("expected an object");
    expect(Buffer.compare(await buffer(result.object.body), bytes)).toBe(0);
    const again = await reader.read(readRequest(key, { validators: { etag: result.object.etag as string } }));
    expect(again.kind).toBe("not-modified");
    const wrong = createS3OriginReader({ ...minio, secret_key: "not-the-secret" }, context);
    const error = await wrong.read(readRequest(key)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OriginError);
    expect((error as OriginError).kind).toBe("denied");
  });
});
