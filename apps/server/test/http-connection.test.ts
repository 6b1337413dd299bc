/**
 * HTTP below the routes, over real sockets: requests Node's parser refuses before routing
 * (src/errors/client-error.ts) get the envelope of their path's group; a reply sent before its
 * request body was read to the end (src/plugins/unread-body.ts) leaves the keep-alive connection
 * usable. Before the latter, an upload refused for its `transform` field after busboy began
 * reading left the rest of a 2 MB body in the socket, and the next request on that connection
 * never got an answer (found by the fuzzer).
 */
import http from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestPathOf } from "../src/errors/client-error.js";
import { DRAIN_MAX_BYTES } from "../src/plugins/unread-body.js";
import { createTestApp, type TestApp } from "./support/index.js";

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  t?.app.server.closeAllConnections();
  await t?.close();
});

/** Sends raw bytes and reads until the server closes: status line, headers, body. */
function rawExchange(request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString("utf8");
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = received.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), headers: head, body });
    });
    socket.write(request);
  });
}

const longQuery = `signature=${"A".repeat(20_000)}`;

describe("parser errors answered in the group's envelope", () => {
  it("a part URL over the header limit is 431 in the multipart shape, and the connection closes", async () => {
    const res = await rawExchange(
      `PUT /api/v1/multipart/parts/0191d3f0-0000-7000-8000-000000000000/1?${longQuery} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(res.headers).toMatch(/connection: close/i);
    expect(JSON.parse(res.body)).toEqual({
      success: false,
      error: "Exceeded maximum allowed HTTP header size (the URL counts)",
    });
  });

  it("uses the upload shape under /api/v1/uploads and { error, message } elsewhere", async () => {
    const upload = await rawExchange(`POST /api/v1/uploads?${longQuery} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(upload.status).toBe(431);
    expect(JSON.parse(upload.body)).toMatchObject({ success: false, errorCode: "VALIDATION_FAILED" });

    const files = await rawExchange(`GET /api/v1/files?${longQuery} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(JSON.parse(files.body)).toEqual({
      error: "Request Header Fields Too Large",
      message: "Exceeded maximum allowed HTTP header size (the URL counts)",
    });
  });

  it("malformed HTTP is a 400 in the envelope, not Fastify's default body", async () => {
    const res = await rawExchange(
      "GET /api/v1/multipart/complete HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ success: false, error: "Malformed HTTP request" });
  });

  it("the server keeps answering on new connections afterwards", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });
});

describe("requestPathOf", () => {
  it("reads the path of the request line, without the query", () => {
    expect(requestPathOf(Buffer.from("PUT /api/v1/multipart/parts/x/1?a=b HTTP/1.1\r\n"))).toBe(
      "/api/v1/multipart/parts/x/1",
    );
    expect(requestPathOf(Buffer.from("GET /api/v1/files"))).toBe("/api/v1/files");
  });

  it("is empty when the bytes do not start with a request line", () => {
    expect(requestPathOf(undefined)).toBe("");
    expect(requestPathOf(Buffer.from("\u0000\u0001garbage"))).toBe("");
    expect(requestPathOf(Buffer.from("GET"))).toBe("");
  });
});

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
  /** The local port of the socket the request went out on: equal ports, same connection. */
  localPort: number | undefined;
}

/** One request through `agent` (one socket at most, kept alive), failing after 5 s without an answer. */
function send(
  agent: http.Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, method, path, headers, agent }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          connection: res.headers.connection,
          body: text,
          localPort: request.socket?.localPort,
        }),
      );
    });
    request.setTimeout(5_000, () => request.destroy(new Error(`${method} ${path}: no answer in 5 s`)));
    request.on("error", reject);
    request.end(body);
  });
}

/** Runs `work` with an agent that keeps one socket alive and reuses it for every request. */
async function withOneSocket(work: (agent: http.Agent) => Promise<void>): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await work(agent);
  } finally {
    agent.destroy();
  }
}

const listFiles = (agent: http.Agent) => send(agent, "GET", "/api/v1/files", { "x-api-key": t.keys.private });

/** The connection stayed open after `refused`, and the next request on it is answered. */
async function expectNextOnSameConnection(agent: http.Agent, refused: Answer): Promise<void> {
  expect(refused.connection).toBe("keep-alive");
  const next = await listFiles(agent);
  expect(next.status).toBe(200);
  expect(next.localPort).toBe(refused.localPort);
}

const BOUNDARY = "----trove-unread";
/** A form whose `transform` is refused before its file part is read. */
function refusedUpload(fileBytes: number): string {
  return (
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="transform"\r\n\r\n{}\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n` +
    `Content-Type: text/plain\r\n\r\n${"A".repeat(fileBytes)}\r\n--${BOUNDARY}--\r\n`
  );
}

describe("a reply sent before the body was read", () => {
  const uploadHeaders = () => ({
    "x-api-key": t.keys.public,
    "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
  });

  it("a large unread remainder: Connection: close, and the next request is answered", async () => {
    await withOneSocket(async (agent) => {
      for (let round = 0; round < 3; round += 1) {
        const refused = await send(
          agent,
          "POST",
          "/api/v1/uploads",
          uploadHeaders(),
          refusedUpload(2 * DRAIN_MAX_BYTES),
        );
        expect(refused.status).toBe(400);
        expect(JSON.parse(refused.body)).toMatchObject({ errorCode: "INVALID_TRANSFORM" });
        expect(refused.connection).toBe("close");
        expect((await listFiles(agent)).status).toBe(200);
      }
    });
  });

  it("a small unread remainder is drained: the connection stays open and serves the next request", async () => {
    await withOneSocket(async (agent) => {
      const refused = await send(
        agent,
        "POST",
        "/api/v1/uploads",
        uploadHeaders(),
        refusedUpload(200 * 1024),
      );
      expect(refused.status).toBe(400);
      await expectNextOnSameConnection(agent, refused);
    });
  });

  it("a refused part is drained up to the gateway's own limit: same connection for the next request", async () => {
    const started = await t.app.inject({
      method: "POST",
      url: "/api/v1/multipart/start",
      headers: { "x-api-key": t.keys.private },
      payload: { file_name: "p.bin", size: 1024, format: "application/octet-stream" },
    });
    expect(started.statusCode).toBe(200);
    const partUrl = new URL((started.json() as { parts: string[] }).parts[0] ?? "");
    await withOneSocket(async (agent) => {
      const refused = await send(
        agent,
        "PUT",
        `${partUrl.pathname}${partUrl.search}`,
        { "content-type": "application/octet-stream" },
        "B".repeat(2 * DRAIN_MAX_BYTES),
      );
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body)).toMatchObject({ success: false });
      await expectNextOnSameConnection(agent, refused);
    });
  });
});
