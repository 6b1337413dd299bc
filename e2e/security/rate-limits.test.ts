/**
 * Security: rate limits an attacker can neither step around nor turn against everyone, and no
 * secret in the logs, against the real `trove-server` with small limits.
 *
 * Two clients on one machine: requests leave from different loopback source addresses
 * (127.0.0.1, 127.0.0.2, 127.0.0.3; Linux routes all of 127.0.0.0/8 to `lo`), so the server sees
 * different client addresses, as it would for two visitors.
 *
 * - invalid keys: one address sending a new made-up key each time gets 401 up to its address
 *   limit, then 429 with Retry-After (each key used to get a bucket of its own: unlimited 401s);
 * - the public key: one address spending its share of a page's public key gets 429 while another
 *   address keeps uploading with the same key;
 * - logs: after a part PUT through the real gateway and requests with keys in every place, the
 *   server's output holds neither the part URL's signature nor any key, but does hold the path.
 */
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportFigures } from "../support/reliability-profile";

const ADDRESS_MAX = 30;
const PUBLIC_KEY_ADDRESS_MAX = 5;
const WINDOW_MS = 60_000;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One HTTP request whose socket is bound to `localAddress`, so the server sees that client address. */
function send(
  url: string,
  options: { localAddress: string; method?: string; headers?: Record<string, string>; body?: Buffer },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? "GET",
        localAddress: options.localAddress,
        headers: { ...options.headers, ...(options.body ? { "content-length": options.body.length } : {}) },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** A direct upload (endpoint 1) of a few bytes with `key`, from `localAddress`. */
async function upload(server: ServerProcess, key: string, localAddress: string): Promise<Answer> {
  const form = new FormData();
  form.append("file_name", "visitor.bin");
  form.append("file", new Blob([randomBytes(64)], { type: "application/octet-stream" }), "visitor.bin");
  const encoded = new Response(form);
  return send(`${server.baseUrl}/api/v1/uploads`, {
    localAddress,
    method: "POST",
    headers: { "x-api-key": key, "content-type": encoded.headers.get("content-type") as string },
    body: Buffer.from(await encoded.arrayBuffer()),
  });
}

function tally(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

/** The 429 every limit answers: Retry-After equal to the body's whole seconds, within the window. */
function expectRateLimited(answer: Answer): void {
  expect(answer.status).toBe(429);
  const body = JSON.parse(answer.text) as { error: string; message: string; retryAfterSeconds: number };
  expect(body.error).toBe("Too Many Requests");
  expect(body.message).toBe(`Rate limit exceeded, retry in ${body.retryAfterSeconds} seconds`);
  expect(Number.isInteger(body.retryAfterSeconds)).toBe(true);
  expect(body.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect(body.retryAfterSeconds).toBeLessThanOrEqual(WINDOW_MS / 1000);
  expect(answer.headers["retry-after"]).toBe(String(body.retryAfterSeconds));
}

describe("security: rate limits and logs", () => {
  let server: ServerProcess;
  const figures: Record<string, unknown> = {};
  const madeUpKeys: string[] = [];

  beforeAll(async () => {
    server = await startServerProcess({
      TROVE_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
      TROVE_RATE_LIMIT_ADDRESS_MAX: String(ADDRESS_MAX),
      TROVE_RATE_LIMIT_PUBLIC_KEY_ADDRESS_MAX: String(PUBLIC_KEY_ADDRESS_MAX),
      // Request logs on, so the log check below has every request line to look through.
      LOG_LEVEL: "info",
    });
  });

  afterAll(async () => {
    reportFigures("security-rate-limits", figures);
    await server?.stop();
  });

  it("made-up keys from one address: 401 up to the address limit, then 429 with Retry-After", async () => {
    const sent = 300;
    const answers: Answer[] = [];
    for (let i = 0; i < sent; i++) {
      const key = `trove_sk_${randomBytes(16).toString("hex")}`;
      madeUpKeys.push(key);
      answers.push(
        await send(`${server.baseUrl}/api/v1/files`, {
          localAddress: "127.0.0.3",
          headers: { "x-api-key": key },
        }),
      );
    }
    expect(tally(answers)).toEqual({ 401: ADDRESS_MAX, 429: sent - ADDRESS_MAX });
    expect(answers.slice(ADDRESS_MAX).every((answer) => answer.status === 429)).toBe(true);
    for (const answer of answers.slice(ADDRESS_MAX)) expectRateLimited(answer);
    // The flood cost the attacker only: a valid key from another address is answered.
    const other = await send(`${server.baseUrl}/api/v1/files`, {
      localAddress: "127.0.0.1",
      headers: { "x-api-key": server.keys.private },
    });
    expect(other.status).toBe(200);
    figures.invalidKeys = {
      sent,
      addressLimit: ADDRESS_MAX,
      answers: tally(answers),
      otherAddress: other.status,
    };
  });

  it("a public key spent from one address still uploads from another", async () => {
    const fromA: Answer[] = [];
    for (let i = 0; i < PUBLIC_KEY_ADDRESS_MAX * 3; i++)
      fromA.push(await upload(server, server.keys.public, "127.0.0.1"));
    expect(tally(fromA)).toEqual({ 200: PUBLIC_KEY_ADDRESS_MAX, 429: PUBLIC_KEY_ADDRESS_MAX * 2 });
    for (const answer of fromA.slice(PUBLIC_KEY_ADDRESS_MAX)) expectRateLimited(answer);

    const fromB: Answer[] = [];
    for (let i = 0; i < PUBLIC_KEY_ADDRESS_MAX; i++)
      fromB.push(await upload(server, server.keys.public, "127.0.0.2"));
    expect(tally(fromB)).toEqual({ 200: PUBLIC_KEY_ADDRESS_MAX });
    // A is still held back while B uploads.
    expectRateLimited(await upload(server, server.keys.public, "127.0.0.1"));
    figures.publicKey = {
      perVisitorLimit: PUBLIC_KEY_ADDRESS_MAX,
      addressA: { sent: fromA.length, answers: tally(fromA) },
      addressB: { sent: fromB.length, answers: tally(fromB) },
    };
  });

  it("the server's output holds no part URL signature and no key, yet names the paths", async () => {
    const start = await send(`${server.baseUrl}/api/v1/multipart/start`, {
      localAddress: "127.0.0.2",
      method: "POST",
      headers: { "x-api-key": server.keys.private, "content-type": "application/json" },
      body: Buffer.from(
        JSON.stringify({ file_name: "logged.bin", size: 16, format: "application/octet-stream" }),
      ),
    });
    expect(start.status, start.text).toBe(200);
    const partUrl = new URL((JSON.parse(start.text) as { parts: string[] }).parts[0] as string);
    const signature = partUrl.searchParams.get("signature") as string;
    expect(signature.length).toBeGreaterThan(10);
    const part = await send(partUrl.toString(), {
      localAddress: "127.0.0.2",
      method: "PUT",
      headers: { "content-type": "application/octet-stream" },
      body: randomBytes(16),
    });
    expect(part.status, part.text).toBe(200);
    // Keys in a query string and a Bearer header as well.
    await send(`${server.baseUrl}/api/v1/files?key=${server.keys.private2}`, {
      localAddress: "127.0.0.2",
      headers: { authorization: `Bearer ${server.keys.private}` },
    });

    const output = server.output();
    expect(output).toContain(partUrl.pathname);
    expect(output).toContain("signature=[REDACTED]");
    expect(output).not.toContain(signature);
    const keys = [server.keys.public, server.keys.private, server.keys.private2, ...madeUpKeys];
    const leaked = keys.filter((key) => output.includes(key));
    expect(leaked).toEqual([]);
    figures.logs = {
      outputBytes: output.length,
      requestLines: output.split("\n").filter((line) => line.includes('"incoming request"')).length,
      secretsSearched: keys.length + 1,
      secretsFound: leaked.length,
    };
  });
});
