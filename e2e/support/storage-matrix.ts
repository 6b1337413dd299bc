/**
 * The storage drivers e2e suites run against: the embedded `fs` default, and `s3` against an
 * s3rver child process (a real S3 wire protocol on loopback). A real MinIO is used instead when
 * MINIO_ENDPOINT is set.
 */
import { startS3rver } from "../../apps/server/test/support/s3rver.js";

export interface StorageBackend {
  name: "fs" | "s3";
  /** Environment for the server process. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export const STORAGE_DRIVERS = ["fs", "s3"] as const;

export async function startStorage(name: StorageBackend["name"]): Promise<StorageBackend> {
  if (name === "fs") return { name, env: { TROVE_STORAGE: "fs" }, stop: async () => {} };
  if (process.env.MINIO_ENDPOINT) {
    return {
      name,
      env: {
        TROVE_STORAGE: "s3",
        TROVE_S3_ENDPOINT: process.env.MINIO_ENDPOINT,
        TROVE_S3_BUCKET: process.env.MINIO_BUCKET ?? "trove-e2e",
        TROVE_S3_ACCESS_KEY: process.env.MINIO_ACCESS_KEY ?? "minioadmin",
        TROVE_S3_SECRET_KEY: process.env.MINIO_SECRET_KEY ?? "minioadmin",
      },
      stop: async () => {},
    };
  }
  const s3 = await startS3rver();
  return {
    name,
    env: {
      TROVE_STORAGE: "s3",
      TROVE_S3_ENDPOINT: s3.endpoint,
      TROVE_S3_REGION: s3.region,
      TROVE_S3_BUCKET: s3.bucket,
      TROVE_S3_ACCESS_KEY: s3.accessKey,
      TROVE_S3_SECRET_KEY: s3.secretKey,
    },
    stop: () => s3.stop(),
  };
}
