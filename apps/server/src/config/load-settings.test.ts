// What the one declaration adds to loadConfig: CORS origins and the tracing switch come from the
// environment through it (before, the CORS plugin and server.ts read process.env themselves),
// every yes/no setting reads the same spellings, and a config built without the environment
// gets the same defaults as an empty environment.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, resolveConfig } from "../config.js";
import { corsPlugin } from "../plugins/cors.js";
import { readSettings } from "./read-settings.js";
import { SETTINGS } from "./settings.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-settings-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
const load = (env: Record<string, string>) => loadConfig({ TROVE_DATA_DIR: dir, ...env });

describe("loadConfig", () => {
  it("reads TROVE_CORS_ORIGINS into config.corsOrigins, which the CORS plugin applies", async () => {
    expect(load({}).corsOrigins).toBe("*");
    expect(load({ TROVE_CORS_ORIGINS: "none" }).corsOrigins).toBe(false);
    const config = load({ TROVE_CORS_ORIGINS: "https://app.example.com" });
    expect(config.corsOrigins).toEqual(["https://app.example.com"]);
    expect(() => load({ TROVE_CORS_ORIGINS: "app.example.com" })).toThrow(
      /^Invalid environment: TROVE_CORS_ORIGINS: "app.example.com" is not an origin/,
    );

    const app = Fastify();
    await app.register(corsPlugin, { origins: config.corsOrigins });
    app.get("/", async () => ({}));
    const preflight = (origin: string) =>
      app.inject({
        method: "OPTIONS",
        url: "/",
        headers: { origin, "access-control-request-method": "GET" },
      });
    expect((await preflight("https://app.example.com")).headers["access-control-allow-origin"]).toBe(
      "https://app.example.com",
    );
    expect((await preflight("https://other.example")).headers["access-control-allow-origin"]).toBeUndefined();
    await app.close();
  });

  it("decides from OTEL_* whether tracing is on, and where spans go", () => {
    expect(load({}).tracing).toEqual({ tracesUrl: undefined, serviceName: "trove-server" });
    expect(
      load({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318/", OTEL_SERVICE_NAME: "media" }).tracing,
    ).toEqual({
      tracesUrl: "http://127.0.0.1:4318/v1/traces",
      serviceName: "media",
    });
    expect(
      load({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "true" }).tracing
        .tracesUrl,
    ).toBeUndefined();
  });

  it("reports every invalid variable at once, the parsed-by-area ones included", () => {
    expect(() => load({ PORT: "http", TROVE_TRUST_PROXY: "true", TROVE_TRUSTED_RANGES: "nope" })).toThrow(
      /^Invalid environment: PORT: .*; TROVE_TRUSTED_RANGES: Invalid trusted range "nope".*; TROVE_TRUST_PROXY: /,
    );
  });
});

describe("yes/no settings", () => {
  const booleans = Object.entries(SETTINGS).filter(
    ([name, setting]) => setting.kind === "boolean" && name !== "OTEL_SDK_DISABLED",
  );

  it("all read true, false, 1 and 0, and refuse anything else naming the variable", () => {
    expect(booleans.length).toBe(8);
    for (const [name] of booleans) {
      const read = (value: string) => (readSettings({ [name]: value }) as Record<string, unknown>)[name];
      expect([read("true"), read("1"), read(" false "), read("0")], name).toEqual([true, true, false, false]);
      expect(() => read("yes"), name).toThrow(ConfigError);
      expect(() => read("yes"), name).toThrow(new RegExp(`${name}: Invalid option`));
    }
  });

  it("OTEL_SDK_DISABLED reads as the OpenTelemetry SDK reads it: true in any case, anything else false", () => {
    const read = (value: string) =>
      readSettings({ OTEL_SDK_DISABLED: value }, ["OTEL_SDK_DISABLED"]).OTEL_SDK_DISABLED;
    expect([read("TRUE"), read("true"), read("yes"), read("")]).toEqual([true, true, false, false]);
  });
});

describe("resolveConfig", () => {
  it("gives a config built in code the defaults an empty environment reads as", () => {
    const fromEnv = load({});
    const inCode = resolveConfig({ dataDir: dir });
    const { secretKey, urlSigning, seedDev, workers, ...declared } = fromEnv;
    const { secretKey: _k, urlSigning: _u, seedDev: _s, workers: _w, ...resolved } = inCode;
    expect(resolved).toEqual(declared);
  });
});
