// Configuration of storage and multipart uploads from the environment (src/config.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, resolveConfig } from "../src/config.js";

describe("storage and multipart configuration", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "trove-mp-config-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("defaults: fs storage, gateway mode, 1 h sessions, 10 GiB, sweep every 5 min", () => {
    const config = loadConfig({ TROVE_DATA_DIR: dir });
    expect(config.storageKind).toBe("fs");
    expect(config.s3).toBeUndefined();
    expect(config.multipart).toEqual({
      mode: "gateway",
      gatewayUrl: undefined,
      defaultTtlSeconds: 3600,
      maxFileBytes: 10 * 1024 ** 3,
      sweepIntervalMs: 300_000,
      orphanGraceMs: 900_000,
    });
    expect(resolveConfig({}).multipart).toEqual(config.multipart);
  });

  it("reads TROVE_STORAGE=s3 with TROVE_S3_* and the multipart variables", () => {
    const config = loadConfig({
      TROVE_DATA_DIR: dir,
      TROVE_STORAGE: "s3",
      TROVE_S3_ENDPOINT: "http://127.0.0.1:9000",
      TROVE_S3_BUCKET: "media",
      TROVE_S3_ACCESS_KEY: "AKIA",
      TROVE_S3_SECRET_KEY: "secret",
      TROVE_S3_REGION: "eu-west-1",
      TROVE_S3_PUBLIC_ENDPOINT: "https://s3.example.test",
      TROVE_S3_PATH_STYLE: "false",
      TROVE_MULTIPART_MODE: "direct",
      TROVE_GATEWAY_URL: "https://upload.example.test/",
      TROVE_MULTIPART_TTL_SECONDS: "600",
      TROVE_MAX_MULTIPART_BYTES: "1048576",
      TROVE_MULTIPART_SWEEP_INTERVAL_MS: "60000",
    });
    expect(config.storageKind).toBe("s3");
    expect(config.s3).toEqual({
      endPoint: "127.0.0.1",
      port: 9000,
      useSSL: false,
      region: "eu-west-1",
      bucket: "media",
      accessKey: "AKIA",
      secretKey: "secret",
      pathStyle: false,
      publicEndpoint: "https://s3.example.test",
    });
    expect(config.multipart).toEqual({
      mode: "direct",
      gatewayUrl: "https://upload.example.test",
      defaultTtlSeconds: 600,
      maxFileBytes: 1_048_576,
      sweepIntervalMs: 60_000,
      orphanGraceMs: 900_000,
    });
  });

  it("names what is missing or wrong", () => {
    expect(() => loadConfig({ TROVE_DATA_DIR: dir, TROVE_STORAGE: "s3", TROVE_S3_BUCKET: "b" })).toThrow(
      new ConfigError(
        "Invalid environment: TROVE_STORAGE=s3 needs TROVE_S3_ENDPOINT, TROVE_S3_ACCESS_KEY, TROVE_S3_SECRET_KEY",
      ),
    );
    expect(() => loadConfig({ TROVE_DATA_DIR: dir, TROVE_MULTIPART_MODE: "direct" })).toThrow(
      "TROVE_MULTIPART_MODE=direct needs TROVE_STORAGE=s3",
    );
    expect(() => loadConfig({ TROVE_DATA_DIR: dir, TROVE_MULTIPART_MODE: "presigned" })).toThrow(
      /TROVE_MULTIPART_MODE/,
    );
    expect(() => loadConfig({ TROVE_DATA_DIR: dir, TROVE_MULTIPART_TTL_SECONDS: "0" })).toThrow(
      /TROVE_MULTIPART_TTL_SECONDS/,
    );
    expect(() => loadConfig({ TROVE_DATA_DIR: dir, TROVE_GATEWAY_URL: "ftp://x" })).toThrow(
      /TROVE_GATEWAY_URL/,
    );
  });
});
