import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpResponse, http } from "msw";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flatUploadResponse } from "../../../test/support/fixtures.js";
import { BASE_URL, testOptions, useMswServer } from "../../../test/support/msw-server.js";
import * as nodeEntry from "../../node.js";

const server = useMswServer();
let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-sdk-direct-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Arrival {
  headers: Headers;
  body: string;
}

/** Answers each direct upload with the next of `answers` (the last one repeats); keeps what arrived. */
function directUploads(...answers: (() => Response)[]): Arrival[] {
  const arrivals: Arrival[] = [];
  server.use(
    http.post(`${BASE_URL}/api/v1/uploads`, async ({ request }) => {
      arrivals.push({ headers: request.headers, body: await request.text() });
      return (
        answers[arrivals.length - 1] ??
        answers.at(-1) ??
        (() => HttpResponse.json(flatUploadResponse))
      )();
    }),
  );
  return arrivals;
}

const CLIENTS = { createClient: nodeEntry.createClient, createUploadClient: nodeEntry.createUploadClient };

describe.each(Object.entries(CLIENTS))("Node %s: a direct upload's body", (_, create) => {
  it("is the multipart/form-data of the fields and the file, byte for byte, with its Content-Length", async () => {
    const path = join(dir, "note.txt");
    await writeFile(path, "hello, trove\n");
    const arrivals = directUploads(() => HttpResponse.json(flatUploadResponse));
    const handed: RequestInit[] = [];
    const fetchSpy: typeof fetch = (input, init) => {
      if (init) handed.push(init);
      return fetch(input, init);
    };
    await create(testOptions({ fetch: fetchSpy })).upload(path, { folder: "notes", tags: ["a", "b"] });
    // A stream fetch sends as it reads, in the one mode in which fetch keeps no copy for a redirect.
    expect(handed.map((init) => [init.body instanceof ReadableStream, init.redirect])).toEqual([
      [true, "error"],
    ]);

    const [arrival] = arrivals;
    const boundary = /^multipart\/form-data; boundary=(\S+)$/.exec(
      arrival?.headers.get("content-type") ?? "",
    )?.[1];
    expect(boundary).toBeDefined();
    const field = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    expect(arrival?.body).toBe(
      field("file_name", "note.txt") +
        field("folder", "notes") +
        field("tags", "a,b") +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="note.txt"\r\n` +
        "Content-Type: text/plain\r\n\r\nhello, trove\n\r\n" +
        `--${boundary}--\r\n\r\n`,
    );
    expect(Number(arrival?.headers.get("content-length"))).toBe(Buffer.byteLength(arrival?.body ?? ""));
    expect(arrival?.headers.get("x-api-key")).toBe("trove_sk_test");
  });

  it("is read again from the file for a retry (429), whole", async () => {
    const path = join(dir, "retried.bin");
    const content = "0123456789".repeat(10_000);
    await writeFile(path, content);
    const arrivals = directUploads(
      () =>
        HttpResponse.json(
          { error: "Too Many Requests", message: "m", retryAfterSeconds: 0 },
          { status: 429 },
        ),
      () => HttpResponse.json(flatUploadResponse),
    );
    await create(testOptions()).upload(path);

    expect(arrivals).toHaveLength(2);
    expect(arrivals[0]?.body).toContain(`\r\n\r\n${content}\r\n--`);
    expect(arrivals[1]?.body).toBe(arrivals[0]?.body);
  });
});
