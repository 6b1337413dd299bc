import { createReadStream } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { HttpResponse, http } from "msw";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeMultipart, patternBytes } from "../../../test/support/fake-multipart.js";
import { flatUploadResponse } from "../../../test/support/fixtures.js";
import { BASE_URL, testOptions, useMswServer } from "../../../test/support/msw-server.js";
import { refusedTarget } from "../../../test/support/refused-port.js";
import * as nodeEntry from "../../node.js";
import { fileSessionStore } from "./file-session-store.js";

const server = useMswServer();
const PART = 1024;
const SIZE = 5 * PART + 7;
let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-sdk-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const client = (overrides = {}) =>
  nodeEntry.createClient(testOptions({ multipartThreshold: 1000, ...overrides }));

describe("@trove/sdk/node", () => {
  it("re-exports the whole main entry", async () => {
    const main = await import("../../index.js");
    for (const name of Object.keys(main)) expect(nodeEntry).toHaveProperty(name);
    expect(nodeEntry.createClient).not.toBe(main.createClient);
    expect(nodeEntry.TroveError).toBe(main.TroveError);
  });

  it("both clients send a POST again when the connection was refused", async () => {
    for (const create of [nodeEntry.createUploadClient, nodeEntry.createClient]) {
      const refused = await refusedTarget(server);
      const client = create(testOptions({ baseUrl: refused.baseUrl, fetch: refused.fetch, maxRetries: 2 }));
      const error = await client.uploadFromUrl("https://example.com/cat.jpg").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(nodeEntry.ConnectionError);
      expect(error).toMatchObject({ requestNotSent: true });
      expect(refused.attempts).toBe(3);
    }
  });

  it("uploads a file path in parts, read from disk part by part", async () => {
    const bytes = patternBytes(SIZE);
    const path = join(dir, "clip.mp4");
    await writeFile(path, bytes);
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART });
    const result = await client().upload(path, { concurrency: 2 });
    expect(storage.starts[0]).toMatchObject({ file_name: "clip.mp4", size: SIZE, format: "video/mp4" });
    expect(storage.assembled()).toEqual(bytes);
    expect(result.size).toBe(SIZE);
  });

  it("reads a retried part of a file path again from the file", async () => {
    const bytes = patternBytes(SIZE);
    const path = join(dir, "retried.bin");
    await writeFile(path, bytes);
    let failures = 0;
    const storage = fakeMultipart(server, {
      size: SIZE,
      partSize: PART,
      onPart: async (index, request) => {
        if (index !== 2 || failures > 0) return undefined;
        failures += 1;
        await request.arrayBuffer(); // the first attempt's bytes are read, then refused
        return HttpResponse.json({ success: false, error: "busy" }, { status: 503 });
      },
    });
    await client({ maxRetries: 1 }).upload(path, { concurrency: 2 });
    expect(storage.assembled()).toEqual(bytes);
    expect(storage.puts.filter((index) => index === 2)).toHaveLength(2);
    expect(storage.puts).toHaveLength(7);
  });

  it("uploads a small file path (or file: URL) directly", async () => {
    const path = join(dir, "note.txt");
    await writeFile(path, "hello");
    const names: string[] = [];
    server.use(
      http.post(`${BASE_URL}/api/v1/uploads`, async ({ request }) => {
        const form = await request.formData();
        const file = form.get("file") as File;
        names.push(`${form.get("file_name")}:${await file.text()}:${file.type}`);
        return HttpResponse.json(flatUploadResponse);
      }),
    );
    await client().upload(path);
    await client().upload(pathToFileURL(path), { fileName: "renamed.txt" });
    // A file stream remembers its path, which gives it a name and a type.
    await client().upload(createReadStream(path));
    expect(names).toEqual([
      "note.txt:hello:text/plain",
      "renamed.txt:hello:text/plain",
      "note.txt:hello:text/plain",
    ]);
  });

  it("uploads a Node Readable (size given) in parts", async () => {
    const bytes = patternBytes(SIZE);
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART });
    const readable = Readable.from(
      (function* () {
        for (let offset = 0; offset < SIZE; offset += 700)
          yield Buffer.from(bytes.subarray(offset, offset + 700));
      })(),
    );
    await client().upload(readable, { fileName: "stream.png", size: SIZE });
    expect(storage.assembled()).toEqual(bytes);
    // A stream without a path has no type: the name is not guessed from (the server sniffs).
    expect(storage.starts[0]).toMatchObject({ file_name: "stream.png", format: "application/octet-stream" });
  });

  it("a missing path is an INVALID_ARGUMENT TroveError", async () => {
    await expect(client().upload(join(dir, "nope.bin"))).rejects.toMatchObject({
      name: "TroveError",
      code: "INVALID_ARGUMENT",
    });
  });

  it("resumes a file-path upload through fileSessionStore after a failed run", async () => {
    const bytes = patternBytes(SIZE);
    const path = join(dir, "resume.bin");
    await writeFile(path, bytes);
    const storePath = join(dir, "state", "sessions.json");
    const store = fileSessionStore(storePath);

    fakeMultipart(server, {
      size: SIZE,
      partSize: PART,
      onPart: (index) =>
        index >= 2 ? HttpResponse.json({ success: false, error: "down" }, { status: 400 }) : undefined,
    });
    await expect(client({ sessionStore: store }).upload(path, { concurrency: 1 })).rejects.toMatchObject({
      status: 400,
    });
    const saved = JSON.parse(await readFile(storePath, "utf8")) as Record<string, { completed: number[] }>;
    expect(Object.values(saved).map((session) => session.completed)).toEqual([[0, 1]]);

    server.resetHandlers();
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART });
    await client({ sessionStore: fileSessionStore(storePath) }).upload(path);
    expect(storage.starts).toEqual([]);
    expect([...storage.puts].sort()).toEqual([2, 3, 4, 5]);
    expect(JSON.parse(await readFile(storePath, "utf8"))).toEqual({});
  });

  it("a changed file (new mtime) does not resume the old session", async () => {
    const path = join(dir, "changing.bin");
    await writeFile(path, patternBytes(SIZE));
    const store = fileSessionStore(join(dir, "changing.json"));
    fakeMultipart(server, {
      size: SIZE,
      partSize: PART,
      onPart: (index) =>
        index >= 1 ? HttpResponse.json({ success: false, error: "x" }, { status: 400 }) : undefined,
    });
    await client({ sessionStore: store })
      .upload(path, { concurrency: 1 })
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(path, patternBytes(SIZE).reverse());
    server.resetHandlers();
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART });
    await client({ sessionStore: store }).upload(path);
    expect(storage.starts).toHaveLength(1);
    expect(storage.puts).toHaveLength(6);
  });
});

describe("fileSessionStore", () => {
  it("keeps sessions across instances, drops expired ones, survives a corrupt file", async () => {
    const path = join(dir, "store.json");
    const now = Math.floor(Date.now() / 1000);
    const session = (expires_at: number) => ({
      version: 1 as const,
      session_id: "s",
      part_size: 1,
      parts: ["u"],
      expires_at,
      completed: [],
      size: 1,
      file_name: "f",
    });
    const store = fileSessionStore(path);
    await Promise.all([store.set("a", session(now + 100)), store.set("b", session(now + 100))]);
    expect(await fileSessionStore(path).get("a")).toEqual(session(now + 100));
    await store.set("old", session(now - 10));
    expect(await store.get("old")).toBeUndefined();
    await store.delete("a");
    expect(Object.keys(JSON.parse(await readFile(path, "utf8")))).toEqual(["b"]);
    await writeFile(path, "{not json");
    expect(await store.get("b")).toBeUndefined();
    await store.set("c", session(now + 100));
    expect(await store.get("c")).toBeDefined();
  });
});
