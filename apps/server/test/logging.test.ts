import { connect } from "node:net";
import type { FastifyPluginAsync } from "fastify";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MiB, putPart, start } from "./multipart-helpers.js";
import { captureLogs, createTestApp, PROBE, probeRoutes, type TestApp } from "./support/index.js";

const PRESIGNED_SIGNATURE = "5ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e7";
const PRESIGNED_CREDENTIAL = "AKIALEAKYLEAKYLEAKY";

/** A handler that fails quoting its own URL and key, and carrying a presigned URL, as clients of S3 do. */
const leakyRoutes: FastifyPluginAsync = async (app) => {
  app.get("/api/v1/files/__leaky", { config: { auth: "any" } }, async (request) => {
    throw Object.assign(new Error(`upstream refused ${request.url} for ${request.headers["x-api-key"]}`), {
      url: `https://s3.test/b/k?X-Amz-Signature=${PRESIGNED_SIGNATURE}&X-Amz-Credential=${PRESIGNED_CREDENTIAL}`,
    });
  });
};

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

  it("never logs a part URL's signature, a key in a query string or header, or a secret an error quotes", async () => {
    const logs = captureLogs();
    t = await createTestApp({ routes: [leakyRoutes], logger: { stream: logs.stream, level: "info" } });
    const session = await start(t, { file_name: "a.bin", size: 3 });
    const partUrl = new URL(session.parts[0] as string);
    const signature = partUrl.searchParams.get("signature") as string;
    expect(signature.length).toBeGreaterThan(10);
    expect((await putPart(t, partUrl.toString(), Buffer.from("abc"))).statusCode).toBe(200);

    // Keys in every place a client may put one, on a request whose handler fails quoting them.
    const res = await t.app.inject({
      method: "GET",
      url: `/api/v1/files/__leaky?key=${t.keys.private}&signature=${signature}`,
      headers: { "x-api-key": t.keys.public, referer: `https://site.test/page?token=${t.keys.private2}` },
    });
    expect(res.statusCode).toBe(500);
    await t.app.inject({
      method: "GET",
      url: `/api/v1/files?api_key=${t.keys.private2}`,
      headers: { authorization: `Bearer ${t.keys.private}` },
    });

    const text = logs.text();
    for (const secret of [
      signature,
      t.keys.private,
      t.keys.private2,
      t.keys.public,
      PRESIGNED_SIGNATURE,
      PRESIGNED_CREDENTIAL,
    ])
      expect(text).not.toContain(secret);
    // What is useful stays: the paths, the part URL's expiry, and that the error was logged.
    expect(text).toContain(
      `${partUrl.pathname}?expires=${partUrl.searchParams.get("expires")}&signature=[REDACTED]`,
    );
    expect(text).toContain("/api/v1/files/__leaky?key=[REDACTED]");
    const failed = logs.lines().find((line) => line.msg === "request failed");
    const err = failed?.err as { message: string; url: string } | undefined;
    expect(err?.message).toBe(
      "upstream refused /api/v1/files/__leaky?key=[REDACTED]&signature=[REDACTED] for [REDACTED]",
    );
    expect(err?.url).toContain("X-Amz-Signature=[REDACTED]");
  });

  it("a client that abandons an upload mid-body is one info line without a stack, not an error", async () => {
    const logs = captureLogs();
    t = await createTestApp({ logger: { stream: logs.stream, level: "info" } });
    const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = new URL(address);
    const session = await start(t, { file_name: "a.bin", size: 4 * MiB });
    const partPath = new URL(session.parts[0] as string);
    const boundary = "trove-abandon";
    const sent = Buffer.alloc(64 * 1024, 7);
    const abandon = (head: string, requestId: string) =>
      new Promise<void>((resolve, reject) => {
        const socket = connect({ host: "127.0.0.1", port: Number(port) }, () => {
          socket.write(head.replace("REQUEST_ID", requestId));
          socket.write(sent, () => {
            // The server has started reading: the client goes away, as a closed tab or lost network does.
            setTimeout(() => socket.destroy(), 200);
          });
        });
        socket.once("close", () => resolve());
        socket.once("error", reject);
      });
    const uploadHead = [
      "POST /api/v1/uploads HTTP/1.1",
      "Host: 127.0.0.1",
      `x-api-key: ${t.keys.private}`,
      "x-request-id: REQUEST_ID",
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      `Content-Length: ${10 * MiB}`,
      "",
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="big.bin"',
      "Content-Type: application/octet-stream",
      "",
      "",
    ].join("\r\n");
    const partHead = [
      `PUT ${partPath.pathname}${partPath.search} HTTP/1.1`,
      "Host: 127.0.0.1",
      "x-request-id: REQUEST_ID",
      "Content-Type: application/octet-stream",
      `Content-Length: ${4 * MiB}`,
      "",
      "",
    ].join("\r\n");
    await abandon(uploadHead, "abandoned-upload");
    await abandon(partHead, "abandoned-part");
    // The server notices the closed socket on its own schedule: wait for its line, not a time.
    const lineOf = (reqId: string) =>
      logs.lines().find((line) => line.reqId === reqId && line.msg === "client closed the request");
    await vi.waitFor(
      () => {
        expect(lineOf("abandoned-upload")).toBeDefined();
        expect(lineOf("abandoned-part")).toBeDefined();
      },
      { timeout: 20_000, interval: 50 },
    );
    for (const reqId of ["abandoned-upload", "abandoned-part"]) {
      const ofRequest = logs.lines().filter((line) => line.reqId === reqId);
      expect(
        ofRequest.filter((line) => (line.level as number) >= 40),
        reqId,
      ).toEqual([]);
      expect(JSON.stringify(ofRequest)).not.toContain('"stack"');
      expect(ofRequest.filter((line) => line.msg === "client closed the request")).toHaveLength(1);
      const line = lineOf(reqId);
      expect(line?.level).toBe(30);
      expect(line?.bytesReceived).toBeGreaterThan(0);
    }
  });
});
