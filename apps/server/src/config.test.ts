import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseSecretKey } from "./config.js";

describe("loadConfig", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "trove-config-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("has working defaults: embedded PGlite in the data dir, URLs from HOST and PORT", () => {
    const config = loadConfig({ TROVE_DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.host).toBe("127.0.0.1");
    expect(config.database).toEqual({ kind: "pglite", dataDir: join(dir, "pgdata") });
    expect(config.storageDir).toBe(join(dir, "storage"));
    expect(config.publicUrl).toBe("http://127.0.0.1:3000");
    expect(config.assetsUrl).toBe("http://127.0.0.1:3000/assets");
    expect(config.assetsPrefix).toBe("/assets");
    expect(config.rateLimit).toEqual({
      max: 600,
      windowMs: 60_000,
      addressMax: 1_200,
      publicKeyMax: 60_000,
      publicKeyAddressMax: 120,
      partAddressMax: 24_000,
      assetsMax: 1_200,
    });
    expect(config.trustProxy).toBe(false);
    expect(config.seedDev).toBe(true);
    expect(config.logLevel).toBe("info");
    expect(config.secretKey).toHaveLength(32);
    expect(config.multipart.orphanGraceMs).toBe(15 * 60_000);
  });

  it("answers uploads wrapped unless TROVE_UPLOAD_RESPONSE=flat, and refuses other values", () => {
    expect(loadConfig({ TROVE_DATA_DIR: dir }).uploadResponse).toBe("wrapped");
    expect(loadConfig({ TROVE_DATA_DIR: dir, TROVE_UPLOAD_RESPONSE: "flat" }).uploadResponse).toBe("flat");
    expect(() => loadConfig({ TROVE_DATA_DIR: dir, TROVE_UPLOAD_RESPONSE: "envelope" })).toThrow(
      /TROVE_UPLOAD_RESPONSE/,
    );
  });

  it("reads the orphan grace and refuses one under a second", () => {
    expect(loadConfig({ TROVE_DATA_DIR: dir, TROVE_ORPHAN_GRACE_MS: "5000" }).multipart.orphanGraceMs).toBe(
      5000,
    );
    expect(() => loadConfig({ TROVE_DATA_DIR: dir, TROVE_ORPHAN_GRACE_MS: "10" })).toThrow(
      /TROVE_ORPHAN_GRACE_MS/,
    );
  });

  it("generates the development secret key once and keeps it (mode 0600)", () => {
    const first = loadConfig({ TROVE_DATA_DIR: dir });
    const second = loadConfig({ TROVE_DATA_DIR: dir });
    expect(second.secretKey.equals(first.secretKey)).toBe(true);
    const file = join(dir, "secret.key");
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8").trim()).toBe(first.secretKey.toString("hex"));
  });

  it("reads every variable", () => {
    const key = "ab".repeat(32);
    const config = loadConfig({
      PORT: "8080",
      HOST: "0.0.0.0",
      DATABASE_URL: "postgres://u:p@127.0.0.1:5432/trove",
      TROVE_DATA_DIR: dir,
      TROVE_STORAGE_DIR: join(dir, "s"),
      TROVE_PUBLIC_URL: "https://media.example.test/",
      TROVE_ASSETS_URL: "https://cdn.example.test",
      TROVE_SECRET_KEY: key,
      REDIS_URL: "redis://127.0.0.1:6379",
      TROVE_RATE_LIMIT_MAX: "5",
      TROVE_RATE_LIMIT_WINDOW_MS: "1000",
      TROVE_RATE_LIMIT_ADDRESS_MAX: "6",
      TROVE_RATE_LIMIT_PUBLIC_KEY_MAX: "7",
      TROVE_RATE_LIMIT_PUBLIC_KEY_ADDRESS_MAX: "8",
      TROVE_RATE_LIMIT_PART_ADDRESS_MAX: "9",
      TROVE_ASSETS_RATE_LIMIT_MAX: "10",
      TROVE_TRUST_PROXY: "10.0.0.0/8, 192.168.1.1",
      TROVE_DEV_PRIVATE_KEY: "trove_sk_fixedfixedfixedfixedfixedfixed",
      LOG_LEVEL: "debug",
    });
    expect(config.port).toBe(8080);
    expect(config.database).toEqual({
      kind: "postgres",
      url: "postgres://u:p@127.0.0.1:5432/trove",
      preparedStatements: true,
    });
    expect(config.storageDir).toBe(join(dir, "s"));
    expect(config.publicUrl).toBe("https://media.example.test");
    expect(config.assetsUrl).toBe("https://cdn.example.test");
    expect(config.secretKey.toString("hex")).toBe(key);
    expect(config.redisUrl).toBe("redis://127.0.0.1:6379");
    expect(config.rateLimit).toEqual({
      max: 5,
      windowMs: 1000,
      addressMax: 6,
      publicKeyMax: 7,
      publicKeyAddressMax: 8,
      partAddressMax: 9,
      assetsMax: 10,
    });
    expect(config.trustProxy).toEqual(["10.0.0.0/8", "192.168.1.1/32"]);
    expect(config.devKeys.privateKey).toBe("trove_sk_fixedfixedfixedfixedfixedfixed");
    expect(config.seedDev).toBe(true);
    expect(config.logLevel).toBe("debug");
    expect(existsSync(join(dir, "secret.key"))).toBe(false);
  });

  it("refuses development keys without their kind's prefix, naming the variable", () => {
    const privateKey = "trove_sk_fixedfixedfixedfixedfixedfixed";
    const publicKey = "trove_pk_fixedfixedfixedfixedfixedfixed";
    const refusals: Array<[string, string]> = [
      ["TROVE_DEV_PUBLIC_KEY", "my-public-development-key"],
      ["TROVE_DEV_PUBLIC_KEY", privateKey],
      ["TROVE_DEV_PRIVATE_KEY", "my-private-development-key"],
      ["TROVE_DEV_PRIVATE_KEY", publicKey],
      ["TROVE_DEV_PRIVATE_KEY_2", "another-private-key-here"],
    ];
    for (const [name, value] of refusals) {
      expect(() => loadConfig({ TROVE_DATA_DIR: dir, [name]: value }), `${name}=${value}`).toThrow(
        new RegExp(`${name}: must be a (public|private) key starting with trove_(pk|sk)_`),
      );
    }
    const config = loadConfig({
      TROVE_DATA_DIR: dir,
      TROVE_DEV_PUBLIC_KEY: publicKey,
      TROVE_DEV_PRIVATE_KEY: privateKey,
    });
    expect(config.devKeys).toMatchObject({ publicKey, privateKey });
  });

  it("reads TROVE_TRUST_PROXY as a hop count or proxy ranges, and refuses anything else", () => {
    const trustProxy = (value: string) =>
      loadConfig({ TROVE_DATA_DIR: dir, TROVE_TRUST_PROXY: value }).trustProxy;
    expect(trustProxy("2")).toBe(2);
    expect(trustProxy("0")).toBe(false);
    expect(trustProxy("")).toBe(false);
    expect(trustProxy("::1")).toEqual(["::1/128"]);
    // `true` would let every client name its own address in X-Forwarded-For.
    for (const bad of ["true", "10.0.0.0/33", "proxy.internal", "99"])
      expect(() => trustProxy(bad), bad).toThrow(/TROVE_TRUST_PROXY/);
    expect(() => loadConfig({ TROVE_DATA_DIR: dir, TROVE_RATE_LIMIT_ADDRESS_MAX: "0" })).toThrow(
      /TROVE_RATE_LIMIT_ADDRESS_MAX/,
    );
  });

  it("reads the origin cache's host bound (default 32) and refuses one under a host", () => {
    expect(loadConfig({ TROVE_DATA_DIR: dir }).origins.maxHostsPerSource).toBe(32);
    const config = loadConfig({ TROVE_DATA_DIR: dir, TROVE_ORIGIN_CACHE_MAX_HOSTS: "5" });
    expect(config.origins.maxHostsPerSource).toBe(5);
    expect(() => loadConfig({ TROVE_DATA_DIR: dir, TROVE_ORIGIN_CACHE_MAX_HOSTS: "0" })).toThrow(
      /TROVE_ORIGIN_CACHE_MAX_HOSTS/,
    );
  });

  it("reads the upscale pixel limit (default 4096²) and refuses one under a pixel", () => {
    expect(loadConfig({ TROVE_DATA_DIR: dir }).mediaLimits.maxUpscalePixels).toBe(4096 * 4096);
    const config = loadConfig({ TROVE_DATA_DIR: dir, TROVE_MAX_UPSCALE_PIXELS: "1000000" });
    expect(config.mediaLimits.maxUpscalePixels).toBe(1_000_000);
    expect(() => loadConfig({ TROVE_DATA_DIR: dir, TROVE_MAX_UPSCALE_PIXELS: "0" })).toThrow(
      /TROVE_MAX_UPSCALE_PIXELS/,
    );
  });

  it("reads the default upload policy of public keys from TROVE_PUBLIC_KEY_*, none when unset", () => {
    expect(loadConfig({ TROVE_DATA_DIR: dir }).publicKeyPolicy).toBeUndefined();
    const config = loadConfig({
      TROVE_DATA_DIR: dir,
      TROVE_PUBLIC_KEY_MAX_FILE_SIZE: "1GiB",
      TROVE_PUBLIC_KEY_ALLOWED_TYPES: "image/*, video/mp4",
      TROVE_PUBLIC_KEY_ALLOW_REMOTE: "false",
    });
    expect(config.publicKeyPolicy).toMatchObject({
      max_file_size: 1024 ** 3,
      allowed_types: ["image/*", "video/mp4"],
      allow_remote: false,
    });
    for (const [name, value] of [
      ["TROVE_PUBLIC_KEY_MAX_FILE_SIZE", "big"],
      ["TROVE_PUBLIC_KEY_ALLOWED_TYPES", "images"],
    ] as const) {
      expect(() => loadConfig({ TROVE_DATA_DIR: dir, [name]: value }), name).toThrow(/TROVE_PUBLIC_KEY/);
    }
  });

  it("does not seed on PostgreSQL unless asked", () => {
    const config = loadConfig({
      TROVE_DATA_DIR: dir,
      DATABASE_URL: "postgresql://h/db",
      TROVE_SECRET_KEY: "a".repeat(64),
    });
    expect(config.seedDev).toBe(false);
  });

  it("prepares the hot statements on PostgreSQL unless TROVE_DATABASE_PREPARED_STATEMENTS is false", () => {
    const base = { TROVE_DATA_DIR: dir, DATABASE_URL: "postgresql://h/db", TROVE_SECRET_KEY: "a".repeat(64) };
    const prepared = (value?: string) => {
      const { database } = loadConfig({ ...base, TROVE_DATABASE_PREPARED_STATEMENTS: value });
      return database.kind === "postgres" ? database.preparedStatements : "not postgres";
    };
    expect([prepared(), prepared("true"), prepared("1"), prepared("false"), prepared("0")]).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(() => prepared("no")).toThrow(/TROVE_DATABASE_PREPARED_STATEMENTS/);
  });

  it("reports every invalid variable", () => {
    expect(() =>
      loadConfig({ TROVE_DATA_DIR: dir, PORT: "http", DATABASE_URL: "mysql://x", LOG_LEVEL: "loud" }),
    ).toThrow(ConfigError);
    try {
      loadConfig({ TROVE_DATA_DIR: dir, PORT: "http", DATABASE_URL: "mysql://x" });
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT/);
      expect((error as Error).message).toMatch(/DATABASE_URL/);
    }
    expect(() => parseSecretKey("too-short")).toThrow(ConfigError);
    expect(parseSecretKey(Buffer.alloc(32, 1).toString("base64"))).toHaveLength(32);
  });
});
