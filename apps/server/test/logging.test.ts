import { afterEach, describe, expect, it } from "vitest";
import { captureLogs, createTestApp, PROBE, probeRoutes, type TestApp } from "./support/index.js";

describe("logging", () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
  });

  it("logs requests with headers but redacts API keys, in both headers", async () => {
    const logs = captureLogs();
    t = await createTestApp({ routes: [probeRoutes], logger: { stream: logs.stream, level: "info" } });
    await t.app.inject({
      method: "GET",
      url: PROBE.files,
      headers: { "x-api-key": t.keys.private, "x-request-id": "r1" },
    });
    await t.app.inject({
      method: "GET",
      url: PROBE.files,
      headers: { authorization: `Bearer ${t.keys.private2}`, "x-request-id": "r2" },
    });
    await t.app.inject({
      method: "GET",
      url: PROBE.files,
      headers: { "x-api-key": "trove_sk_wrongwrongwrongwrongwrongwrongwron" },
    });
    const text = logs.text();
    expect(text).not.toContain(t.keys.private);
    expect(text).not.toContain(t.keys.private2);
    expect(text).not.toContain("trove_sk_wrongwrong");
    const incoming = logs.lines().filter((line) => line.msg === "incoming request");
    expect(incoming.length).toBe(3);
    const headersOf = (line: Record<string, unknown> | undefined) =>
      (line?.req as { headers: Record<string, string> } | undefined)?.headers ?? {};
    expect(headersOf(incoming[0])["x-api-key"]).toBe("[REDACTED]");
    expect(headersOf(incoming[1]).authorization).toBe("[REDACTED]");
    expect(incoming[0]?.reqId).toBe("r1");
  });

  it("redacts source secrets wherever a log line carries them", async () => {
    const logs = captureLogs();
    t = await createTestApp({ logger: { stream: logs.stream, level: "info" } });
    t.app.log.info(
      {
        configuration: { bucket: "b", access_key: "AKIA1234", secret_key: "s3cr3t" },
        body: { configuration: { connection_string: "DefaultEndpointsProtocol=https;AccountKey=zzz" } },
        source: { config: { service_account_json: '{"private_key":"pk"}' } },
      },
      "source saved",
    );
    const text = logs.text();
    for (const secret of ["AKIA1234", "s3cr3t", "AccountKey=zzz", "private_key"])
      expect(text).not.toContain(secret);
    expect(text).toContain('"bucket":"b"');
  });
});
