import { Writable } from "node:stream";
import Fastify from "fastify";
import { pino } from "pino";
import { describe, expect, it, vi } from "vitest";
import { loggerOptions } from "./logger-options.js";
import { lazyRequestLogger } from "./request-logger.js";

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, stream };
}

describe("lazyRequestLogger", () => {
  it("makes no child for a line below the level, and a child with the bindings for one at it", () => {
    const { lines, stream } = capture();
    const parent = pino({ level: "warn" }, stream);
    const child = vi.spyOn(parent, "child");
    const log = lazyRequestLogger(parent, { reqId: "r-1" }, {});
    log.info("dropped");
    log.debug({ a: 1 }, "dropped too");
    expect(child).not.toHaveBeenCalled();
    expect(log.level).toBe("warn");
    log.warn({ detail: 2 }, "kept");
    log.error("kept too");
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => [l.msg, l.reqId])).toEqual([
      ["kept", "r-1"],
      ["kept too", "r-1"],
    ]);
    expect(lines[0]?.detail).toBe(2);
  });

  it("follows a level changed on the request's logger", () => {
    const { lines, stream } = capture();
    const log = lazyRequestLogger(pino({ level: "warn" }, stream), { reqId: "r-2" }, {});
    log.level = "debug";
    log.debug("now kept");
    expect(lines.map((l) => l.msg)).toEqual(["now kept"]);
  });

  it("keeps the app's redaction: a key in a request line is censored", async () => {
    const { lines, stream } = capture();
    const app = Fastify({
      logger: { ...loggerOptions("info"), stream },
      childLoggerFactory: lazyRequestLogger,
    });
    app.get("/", async (request) => {
      request.log.info({ apiKey: "trove_sk_secret" }, "with a key");
      return { ok: true };
    });
    await app.inject({ url: "/", headers: { "x-api-key": "trove_sk_secret" } });
    await app.close();
    const text = JSON.stringify(lines);
    expect(text).not.toContain("trove_sk_secret");
    const line = lines.find((l) => l.msg === "with a key");
    expect(line?.reqId).toEqual(expect.any(String));
    // Fastify's own request lines carry the same id.
    expect(lines.filter((l) => l.reqId === line?.reqId).map((l) => l.msg)).toContain("incoming request");
  });

  it("takes Fastify's no-op logger when logging is off", async () => {
    const app = Fastify({ logger: false, childLoggerFactory: lazyRequestLogger });
    app.get("/", async (request) => {
      request.log.error("nowhere");
      return { ok: true };
    });
    expect((await app.inject({ url: "/" })).statusCode).toBe(200);
    await app.close();
  });
});
