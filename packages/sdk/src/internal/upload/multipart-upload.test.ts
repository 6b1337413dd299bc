import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  fakeMultipart,
  memorySessionStore,
  patternBytes,
  sleep,
} from "../../../test/support/fake-multipart.js";
import { FakeXhr } from "../../../test/support/fake-xhr.js";
import { envelopeUploadResponse } from "../../../test/support/fixtures.js";
import { BASE_URL, testClient, useMswServer } from "../../../test/support/msw-server.js";
import { AbortError, ConnectionError, SessionExpiredError, ValidationError } from "../errors.js";
import type { StoredUploadSession } from "./session-store.js";
import type { UploadProgress } from "./upload-options.js";

const server = useMswServer();
const PART = 1024;
const SIZE = 10 * PART + 100; // 11 parts, the last one short
const small = { multipartThreshold: 1000 };

afterEach(() => {
  vi.unstubAllGlobals();
  FakeXhr.instances = [];
});

/** A part handler that holds each PUT for `ms`, so that uploads overlap. */
const slowParts = (ms: number) => async () => {
  await sleep(ms);
  return undefined;
};

describe("multipart upload", () => {
  it("starts, sends every part with no API key, completes; the bytes arrive in order", async () => {
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART });
    const bytes = patternBytes(SIZE);
    const result = await testClient(small).upload(
      new File([bytes], "big.bin", { type: "application/x-test" }),
      {
        folder: "videos",
        tags: "a,b",
        metadata: { k: 1 },
        customId: "c1",
        randomPrefix: true,
        ttlSeconds: 600,
        expiresIn: 120,
      },
    );
    expect(storage.starts).toEqual([
      {
        file_name: "big.bin",
        size: SIZE,
        format: "application/x-test",
        folder: "videos",
        tags: ["a", "b"],
        metadata: { k: 1 },
        custom_id: "c1",
        random_prefix: true,
        expires_in: 120,
        ttl_seconds: 600,
      },
    ]);
    expect(storage.stored.size).toBe(11);
    expect(storage.stored.get(10)?.byteLength).toBe(100);
    expect(storage.assembled()).toEqual(bytes);
    for (const headers of storage.putHeaders) {
      expect(headers.get("content-type")).toBe("application/octet-stream");
      expect(headers.get("x-api-key")).toBeNull();
      expect(headers.get("authorization")).toBeNull();
    }
    expect(storage.completes).toEqual([{ session_id: "sess_1" }]);
    expect(result).toMatchObject({ file_no: "2001", size: SIZE, workspace_no: "ws1" });
  });

  it("never has more than `concurrency` PUTs in flight", async () => {
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART, onPart: slowParts(15) });
    await testClient(small).upload(patternBytes(SIZE), { fileName: "big.bin", concurrency: 3 });
    expect(storage.maxInFlight).toBe(3);
    expect(storage.stored.size).toBe(11);
  });

  it("defaults to 4 parts at a time", async () => {
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART, onPart: slowParts(15) });
    await testClient(small).upload(patternBytes(SIZE), { fileName: "big.bin" });
    expect(storage.maxInFlight).toBe(4);
  });

  it("retries a failing part on its own and keeps going", async () => {
    let failures = 2;
    const storage = fakeMultipart(server, {
      size: SIZE,
      partSize: PART,
      onPart: (index) =>
        index === 5 && failures-- > 0 ? HttpResponse.text("busy", { status: 503 }) : undefined,
    });
    const bytes = patternBytes(SIZE);
    await testClient(small).upload(bytes, { fileName: "big.bin" });
    expect(storage.puts.filter((index) => index === 5)).toHaveLength(3);
    expect(storage.assembled()).toEqual(bytes);
  });

  it("a part that keeps failing fails the upload, stops the other parts, and skips complete", async () => {
    const storage = fakeMultipart(server, {
      size: SIZE,
      partSize: PART,
      onPart: async (index) => {
        await sleep(5);
        return index === 2
          ? HttpResponse.json({ success: false, error: "bad part" }, { status: 400 })
          : undefined;
      },
    });
    const error = await testClient(small)
      .upload(patternBytes(SIZE), { fileName: "big.bin", concurrency: 2 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ message: "bad part", status: 400 });
    const putsAtFailure = storage.puts.length;
    await sleep(50);
    expect(storage.puts.length).toBe(putsAtFailure);
    expect(putsAtFailure).toBeLessThan(11);
    expect(storage.completes).toEqual([]);
  });

  it("abort mid-upload: rejects with AbortError, sends nothing afterwards, leaves no timer", async () => {
    let release: () => void = () => {};
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const storage = fakeMultipart(server, {
      size: SIZE,
      partSize: PART,
      onPart: async (index) => (index >= 3 ? hold.then(() => undefined) : undefined),
    });
    const controller = new AbortController();
    const task = testClient(small).upload(patternBytes(SIZE), {
      fileName: "big.bin",
      concurrency: 2,
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(storage.puts.length).toBeGreaterThanOrEqual(4));
    controller.abort();
    const error = await task.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).code).toBe("ABORTED");
    const putsAtAbort = storage.puts.length;
    release();
    await sleep(50);
    expect(storage.puts.length).toBe(putsAtAbort);
    expect(storage.completes).toEqual([]);
  });

  it("abort gives up a session nothing can resume (DELETE, once), and keeps a stored one", async () => {
    const abortAfterFourParts = async (sessionStore?: ReturnType<typeof memorySessionStore>) => {
      const storage = fakeMultipart(server, {
        size: SIZE,
        partSize: PART,
        onPart: (index) => (index >= 4 ? new Promise<undefined>(() => {}) : undefined),
      });
      const controller = new AbortController();
      const bytes = new File([patternBytes(SIZE)], "big.bin", { lastModified: 1_700_000_000_000 });
      const task = testClient({ ...small, ...(sessionStore ? { sessionStore } : {}) }).upload(bytes, {
        concurrency: 1,
        signal: controller.signal,
      });
      await vi.waitFor(() => expect(storage.puts.length).toBe(5));
      controller.abort();
      await expect(task).rejects.toBeInstanceOf(AbortError);
      return storage;
    };
    expect((await abortAfterFourParts()).abandons).toEqual([{ sessionId: "sess_1", key: "trove_sk_test" }]);
    server.resetHandlers();
    const store = memorySessionStore();
    expect((await abortAfterFourParts(store)).abandons).toEqual([]);
    expect(store.entries.size).toBe(1);
  });

  it("task.abort() works like the signal, also during a retry wait", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const storage = fakeMultipart(server, {
        size: SIZE,
        partSize: PART,
        onPart: () => HttpResponse.text("down", { status: 503 }),
      });
      const task = testClient({ ...small, maxRetryDelay: 60_000 }).upload(patternBytes(SIZE), {
        fileName: "big.bin",
        concurrency: 1,
      });
      const settled = expect(task.promise).rejects.toBeInstanceOf(AbortError);
      await vi.waitFor(() => expect(storage.puts.length).toBe(1));
      await vi.advanceTimersByTimeAsync(0);
      expect(vi.getTimerCount()).toBe(1); // the backoff before retrying part 0
      task.abort();
      await settled;
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("pause() sends no new part and aborts the ones in flight; resume() sends them again", async () => {
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART, onPart: slowParts(30) });
    const bytes = patternBytes(SIZE);
    const task = testClient(small).upload(bytes, { fileName: "big.bin", concurrency: 2 });
    await vi.waitFor(() => expect(storage.stored.size).toBeGreaterThanOrEqual(2));
    expect(task.pausable).toBe(true);
    expect(task.pause()).toBe(true);
    expect(task.paused).toBe(true);
    const putsAtPause = storage.puts.length;
    await sleep(100);
    expect(storage.puts.length).toBe(putsAtPause);
    expect(storage.stored.size).toBeLessThan(11);
    task.resume();
    const result = await task;
    expect(result.file_no).toBe("2001");
    expect(storage.assembled()).toEqual(bytes);
    // The parts in flight at the pause were aborted and sent again after resume.
    expect(storage.puts.length).toBeGreaterThan(11);
    expect(storage.completes).toHaveLength(1);
  });

  it("abort while paused rejects at once", async () => {
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART, onPart: slowParts(20) });
    const task = testClient(small).upload(patternBytes(SIZE), { fileName: "big.bin" });
    await vi.waitFor(() => expect(storage.puts.length).toBeGreaterThan(0));
    task.pause();
    task.abort();
    await expect(task).rejects.toBeInstanceOf(AbortError);
  });

  it("resumes a stored session: no new start, completed parts are not sent again", async () => {
    const store = memorySessionStore();
    const bytes = patternBytes(SIZE);
    const file = new File([bytes], "big.bin", { lastModified: 1_700_000_000_000 });

    // First run: parts 0..3 go through, then storage refuses everything (a crash, as far as
    // the store is concerned).
    const first = fakeMultipart(server, {
      size: SIZE,
      partSize: PART,
      onPart: (index) =>
        index >= 4 ? HttpResponse.json({ success: false, error: "nope" }, { status: 400 }) : undefined,
    });
    await expect(
      testClient({ ...small, sessionStore: store }).upload(file, { concurrency: 1 }),
    ).rejects.toBeInstanceOf(ValidationError);
    const [stored] = [...store.entries.values()] as StoredUploadSession[];
    expect(stored).toMatchObject({
      session_id: "sess_1",
      completed: [0, 1, 2, 3],
      size: SIZE,
      file_name: "big.bin",
    });
    // What a page shows before the user chooses the file again.
    await expect(testClient({ ...small, sessionStore: store }).listStoredSessions()).resolves.toEqual([
      {
        key: expect.stringMatching(/^trove:upload:/),
        fileName: "big.bin",
        size: SIZE,
        confirmed: 4 * PART,
        startedAt: expect.any(Number),
        expiresAt: (stored?.expires_at ?? 0) * 1000,
      },
    ]);

    // Second run, after a "reload": same file, same store.
    server.resetHandlers();
    const second = fakeMultipart(server, { size: SIZE, partSize: PART });
    const progress: UploadProgress[] = [];
    const result = await testClient({ ...small, sessionStore: store }).upload(file, {
      onProgress: (p) => progress.push(p),
    });
    expect(second.starts).toEqual([]);
    expect(new Set(second.puts)).toEqual(new Set([4, 5, 6, 7, 8, 9, 10]));
    expect(second.puts).toHaveLength(7);
    expect(second.completes).toEqual([{ session_id: "sess_1" }]);
    expect(result.file_no).toBe("2001");
    for (const [index, part] of first.stored) second.stored.set(index, part);
    expect(second.assembled()).toEqual(bytes);
    expect(progress[0]?.confirmed).toBe(4 * PART);
    expect(store.entries.size).toBe(0);
    await expect(testClient({ sessionStore: store }).listStoredSessions()).resolves.toEqual([]);
  });

  it("does not resume a session for another folder, an expired one, or with resuming off", async () => {
    const store = memorySessionStore();
    const file = new File([patternBytes(SIZE)], "big.bin", { lastModified: 1 });
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART });
    const client = testClient({ ...small, sessionStore: store });

    await client.upload(file, { folder: "a", sessionStore: null });
    expect(store.entries.size).toBe(0);

    // Leave a stored session behind for folder "a" with 10 of 11 parts done...
    const key = await storeKeyAfterFailedRun(store, file, { folder: "a" });
    // ...then upload to folder "b": a different key, a new session.
    storage.starts.length = 0;
    await client.upload(file, { folder: "b" });
    expect(storage.starts).toHaveLength(1);
    expect(store.entries.has(key)).toBe(true);

    // Make the stored session for "a" expire: it is replaced, not resumed.
    const stale = store.entries.get(key) as StoredUploadSession;
    store.entries.set(key, { ...stale, expires_at: Math.floor(Date.now() / 1000) + 10 });
    storage.starts.length = 0;
    await client.upload(file, { folder: "a" });
    expect(storage.starts).toHaveLength(1);
    expect(store.entries.size).toBe(0);

    async function storeKeyAfterFailedRun(s: typeof store, input: File, options: { folder: string }) {
      server.resetHandlers();
      fakeMultipart(server, {
        size: SIZE,
        partSize: PART,
        onPart: (index) =>
          index === 10 ? HttpResponse.json({ success: false, error: "x" }, { status: 400 }) : undefined,
      });
      await client.upload(input, { ...options, concurrency: 1 }).catch(() => undefined);
      server.resetHandlers();
      Object.assign(storage, fakeMultipart(server, { size: SIZE, partSize: PART }));
      const [entryKey] = [...s.entries.keys()];
      return entryKey as string;
    }
  });

  it("an expired part URL (403 after expires_at) fails with SessionExpiredError and drops the stored session", async () => {
    const store = memorySessionStore();
    const storage = fakeMultipart(server, {
      size: SIZE,
      partSize: PART,
      // Expires within the clock-skew allowance: storage already refuses the signature.
      session: { expires_at: Math.floor(Date.now() / 1000) + 30 },
      onPart: (index) =>
        index >= 2
          ? new HttpResponse(
              "<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>",
              {
                status: 403,
                headers: { "content-type": "application/xml" },
              },
            )
          : undefined,
    });
    const error = await testClient({ ...small, sessionStore: store })
      .upload(new File([patternBytes(SIZE)], "big.bin"), { concurrency: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionExpiredError);
    expect(error).toMatchObject({ code: "SESSION_EXPIRED", status: 403 });
    expect((error as Error).message).toMatch(/call upload\(\) again/);
    expect(storage.puts).toEqual([0, 1, 2]);
    expect(store.entries.size).toBe(0);
  });

  it("a 403 long before expiry stays a PermissionDeniedError", async () => {
    fakeMultipart(server, {
      size: SIZE,
      partSize: PART,
      onPart: () => HttpResponse.json({ success: false, error: "bad signature" }, { status: 403 }),
    });
    await expect(testClient(small).upload(patternBytes(SIZE), { fileName: "big.bin" })).rejects.toMatchObject(
      {
        name: "PermissionDeniedError",
      },
    );
  });

  it("a part URL count that does not fit the size is an InvalidResponseError", async () => {
    fakeMultipart(server, {
      size: SIZE,
      partSize: PART,
      session: { parts: ["https://storage.trove.test/parts/s/1"] },
    });
    await expect(testClient(small).upload(patternBytes(SIZE), { fileName: "big.bin" })).rejects.toMatchObject(
      {
        name: "InvalidResponseError",
      },
    );
  });

  it("carries transform and webhookUrl in multipart start, as a direct upload does", async () => {
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART });
    await testClient(small).upload(patternBytes(SIZE), {
      fileName: "big.bin",
      transform: "w_100",
      webhookUrl: "https://hooks.example.test/uploaded",
    });
    expect(storage.starts).toEqual([
      expect.objectContaining({ transform: "w_100", webhook_url: "https://hooks.example.test/uploaded" }),
    ]);
  });
});

describe("multipart upload of streams", () => {
  const streamOf = (bytes: Uint8Array, chunk = 300) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.byteLength; offset += chunk) {
          controller.enqueue(bytes.slice(offset, offset + chunk));
        }
        controller.close();
      },
    });

  it("sends a stream of known size in parts, at most `concurrency` at a time", async () => {
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART, onPart: slowParts(10) });
    const bytes = patternBytes(SIZE);
    await testClient(small).upload(streamOf(bytes), { fileName: "s.bin", size: SIZE, concurrency: 2 });
    expect(storage.maxInFlight).toBe(2);
    expect(storage.assembled()).toEqual(bytes);
  });

  it("reads the stream only as fast as parts go out (bounded memory)", async () => {
    let pulled = 0;
    const bytes = patternBytes(SIZE);
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulled >= SIZE) {
            controller.close();
            return;
          }
          controller.enqueue(bytes.slice(pulled, pulled + PART));
          pulled += PART;
        },
      },
      { highWaterMark: 0 },
    );
    let maxAhead = 0;
    const storage = fakeMultipart(server, {
      size: SIZE,
      partSize: PART,
      onPart: async () => {
        maxAhead = Math.max(maxAhead, pulled - storage.stored.size * PART);
        await sleep(10);
        return undefined;
      },
    });
    await testClient(small).upload(stream, { fileName: "s.bin", size: SIZE, concurrency: 2 });
    // Read ahead of what storage has: the parts in flight, plus at most one part being filled.
    expect(maxAhead).toBeLessThanOrEqual(3 * PART);
    expect(storage.assembled()).toEqual(bytes);
  });

  it("abort ends a wait on a stream that stalls, direct or in parts", async () => {
    const stalled = () => new ReadableStream<Uint8Array>({ pull: () => new Promise<void>(() => {}) });
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART });
    for (const size of [undefined, SIZE]) {
      const controller = new AbortController();
      const task = testClient(small).upload(stalled(), {
        fileName: "s.bin",
        size,
        signal: controller.signal,
      });
      await sleep(20);
      controller.abort();
      await expect(task).rejects.toBeInstanceOf(AbortError);
    }
    expect(storage.starts).toHaveLength(1);
    expect(storage.puts).toEqual([]);
  });

  it("a stream larger than the threshold without a size is refused", async () => {
    await expect(
      testClient(small).upload(streamOf(patternBytes(SIZE)), { fileName: "s.bin" }),
    ).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("options.size"),
    });
  });

  it("a stream shorter than its declared size fails clearly", async () => {
    fakeMultipart(server, { size: SIZE, partSize: PART });
    await expect(
      testClient(small).upload(streamOf(patternBytes(SIZE - 500)), { fileName: "s.bin", size: SIZE }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("ended") });
  });
});

describe("connection failures", () => {
  it("read the same through fetch (the direct POST) and XMLHttpRequest (a part), naming the likely causes", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    server.use(http.post(`${BASE_URL}/api/v1/uploads`, () => HttpResponse.error()));
    fakeMultipart(server, { size: SIZE, partSize: PART, onPart: () => HttpResponse.error() });
    const client = testClient({ ...small, maxRetries: 0 });
    const direct = await client.upload(patternBytes(10), { fileName: "a.bin" }).catch((e: unknown) => e);
    const part = await client
      .upload(patternBytes(SIZE), { fileName: "big.bin", onProgress: () => {} })
      .catch((e: unknown) => e);
    expect(FakeXhr.instances.length).toBeGreaterThan(0);
    for (const error of [direct, part]) {
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as Error).message).toBe(
        `Could not reach ${BASE_URL}: the server may be down, baseUrl may be wrong, or CORS refused this origin`,
      );
    }
  });
});

describe("progress", () => {
  it("never goes backwards when a part fails after sending bytes and is retried (XHR, browser)", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    let failures = 1;
    fakeMultipart(server, {
      size: SIZE,
      partSize: PART,
      onPart: async (index) => {
        await sleep(5);
        return index === 3 && failures-- > 0 ? HttpResponse.text("oops", { status: 500 }) : undefined;
      },
    });
    const events: UploadProgress[] = [];
    await testClient(small).upload(patternBytes(SIZE), {
      fileName: "big.bin",
      concurrency: 3,
      onProgress: (p) => events.push(p),
    });
    expect(FakeXhr.instances.length).toBe(12);
    for (let i = 1; i < events.length; i++) {
      const [before, after] = [events[i - 1] as UploadProgress, events[i] as UploadProgress];
      expect(after.loaded).toBeGreaterThanOrEqual(before.loaded);
      expect(after.confirmed).toBeGreaterThanOrEqual(before.confirmed);
      expect(after.percent).toBeGreaterThanOrEqual(before.percent);
    }
    for (const event of events) {
      expect(event.loaded).toBeGreaterThanOrEqual(event.confirmed);
      expect(event.total).toBe(SIZE);
    }
    // Byte-level: some report had bytes sent that were not confirmed yet.
    expect(events.some((event) => event.loaded > event.confirmed)).toBe(true);
    expect(events.at(-1)).toEqual({ loaded: SIZE, confirmed: SIZE, total: SIZE, percent: 100 });
  });

  it("without XMLHttpRequest (Node), reports per confirmed part", async () => {
    fakeMultipart(server, { size: SIZE, partSize: PART });
    const events: UploadProgress[] = [];
    await testClient(small).upload(patternBytes(SIZE), {
      fileName: "big.bin",
      concurrency: 1,
      onProgress: (p) => events.push(p),
    });
    expect(events.map((event) => event.confirmed)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => (i + 1) * PART),
      SIZE,
    ]);
    expect(events.every((event) => event.loaded === event.confirmed)).toBe(true);
  });

  it("sends a direct upload (smallUploads: direct), which carries the key, through fetch even when XHR exists", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    let key: string | null = null;
    server.use(
      http.post(`${BASE_URL}/api/v1/uploads`, ({ request }) => {
        key = request.headers.get("x-api-key");
        return HttpResponse.json(envelopeUploadResponse);
      }),
    );
    const events: UploadProgress[] = [];
    await testClient({ smallUploads: "direct" }).upload(new Blob(["hello world"]), {
      fileName: "a.txt",
      onProgress: (p) => events.push(p),
    });
    // XHR follows every redirect with its headers; fetch is told not to (redirect.test.ts).
    expect(FakeXhr.instances).toEqual([]);
    expect(key).toBe("trove_sk_test");
    expect(events).toEqual([{ loaded: 11, confirmed: 11, total: 11, percent: 100 }]);
  });
});
