import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeMultipart, patternBytes } from "../../../test/support/fake-multipart.js";
import { fileDetails, flatUploadResponse, folderRecord } from "../../../test/support/fixtures.js";
import { BASE_URL, testClient, testOptions, useMswServer } from "../../../test/support/msw-server.js";
import { refusedTarget } from "../../../test/support/refused-port.js";
import { createUploadClient } from "../../upload.js";
import { AbortError, ConnectionError, RateLimitError, ServerError, TimeoutError } from "../errors.js";

const server = useMswServer();
const details = { success: true, data: fileDetails };
const serverError = () => HttpResponse.json({ error: "Failed to get file details" }, { status: 500 });

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The time between one arrival and the next. */
const gapsBetween = (times: number[]) => times.slice(1).map((time, index) => time - (times[index] as number));

/** Records the (fake) time at which each request arrives. */
function arrivals() {
  const times: number[] = [];
  return { times, mark: () => times.push(Date.now()) };
}

describe("retry timing (fake timers)", () => {
  it("backs off exponentially with full jitter between attempts", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const { times, mark } = arrivals();
    server.use(
      http.get(`${BASE_URL}/api/v1/files/:fileNo`, () => {
        mark();
        return times.length <= 3 ? serverError() : HttpResponse.json(details);
      }),
    );
    const client = testClient({ maxRetries: 3, maxRetryDelay: 60_000 });
    const result = client.files.get("1001");

    await vi.advanceTimersByTimeAsync(0);
    expect(times).toHaveLength(1);
    // Retry 1 waits 0.5 × 500 ms, retry 2 0.5 × 1000 ms, retry 3 0.5 × 2000 ms.
    for (const [wait, count] of [
      [250, 2],
      [500, 3],
      [1000, 4],
    ] as const) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(times).toHaveLength(count - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(times).toHaveLength(count);
    }
    await expect(result).resolves.toMatchObject({ file_no: "1001" });
    const gaps = times.slice(1).map((time, index) => time - (times[index] as number));
    expect(gaps).toEqual([250, 500, 1000]);
  });

  it("keeps every wait inside the jitter bounds [0, base·2^(n-1))", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    vi.spyOn(Math, "random").mockReturnValue(0.999_999);
    const { times, mark } = arrivals();
    server.use(
      http.get(`${BASE_URL}/api/v1/files/:fileNo`, () => {
        mark();
        return serverError();
      }),
    );
    const result = testClient({ maxRetries: 2, maxRetryDelay: 60_000 }).files.get("1001");
    const settled = expect(result).rejects.toBeInstanceOf(ServerError);
    await vi.advanceTimersByTimeAsync(10_000);
    await settled;
    const gaps = times.slice(1).map((time, index) => time - (times[index] as number));
    expect(gaps).toEqual([499, 999]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("waits retryAfterSeconds from a 429 body, even for a POST", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const { times, mark } = arrivals();
    server.use(
      http.post(`${BASE_URL}/api/v1/folders`, () => {
        mark();
        return times.length === 1
          ? HttpResponse.json(
              { error: "Too Many Requests", message: "slow down", retryAfterSeconds: 3 },
              { status: 429 },
            )
          : HttpResponse.json({ name: "holidays", folder_no: "F1" });
      }),
    );
    const result = testClient({ maxRetryDelay: 60_000 }).folders.create({ name: "holidays" });
    await vi.advanceTimersByTimeAsync(2999);
    expect(times).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(times).toHaveLength(2);
    await expect(result).resolves.toEqual({ name: "holidays", folder_no: "F1" });
  });

  it("reads the Retry-After header (HTTP date) when the body has no retryAfterSeconds", async () => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "Date"],
      now: Date.parse("2026-01-01T00:00:00Z"),
    });
    const { times, mark } = arrivals();
    server.use(
      http.get(`${BASE_URL}/api/v1/files/:fileNo`, () => {
        mark();
        return times.length === 1
          ? HttpResponse.json(
              { error: "Too Many Requests", message: "slow down" },
              { status: 429, headers: { "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" } },
            )
          : HttpResponse.json(details);
      }),
    );
    const result = testClient({ maxRetryDelay: 60_000 }).files.get("1001");
    await vi.advanceTimersByTimeAsync(4999);
    expect(times).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toMatchObject({ file_no: "1001" });
  });

  it("caps a long retryAfterSeconds at maxRetryDelay", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const { times, mark } = arrivals();
    server.use(
      http.get(`${BASE_URL}/api/v1/files/:fileNo`, () => {
        mark();
        return times.length === 1
          ? HttpResponse.json({ error: "e", message: "m", retryAfterSeconds: 3600 }, { status: 429 })
          : HttpResponse.json(details);
      }),
    );
    const result = testClient({ maxRetryDelay: 2000 }).files.get("1001");
    await vi.advanceTimersByTimeAsync(1999);
    expect(times).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toMatchObject({ file_no: "1001" });
  });

  it("gives up after maxRetries with the last error, its retryAfterSeconds intact", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE_URL}/api/v1/files/:fileNo`, () => {
        calls++;
        return HttpResponse.json(
          { error: "e", message: "m", retryAfterSeconds: 1 },
          { status: 429, headers: { "x-request-id": `r${calls}` } },
        );
      }),
    );
    const error = await testClient({ maxRetries: 2, maxRetryDelay: 0 })
      .files.get("1001")
      .catch((e: unknown) => e);
    expect(calls).toBe(3);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: "RATE_LIMITED", retryAfterSeconds: 1, requestId: "r3" });
  });

  it("an abort during a backoff wait clears the timer and rejects with AbortError", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    // A jitter drawn near 0 would make the backoff a 0 ms timer, which the first advance fires.
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    let calls = 0;
    server.use(
      http.get(`${BASE_URL}/api/v1/files/:fileNo`, () => {
        calls++;
        return serverError();
      }),
    );
    const controller = new AbortController();
    const result = testClient({ maxRetryDelay: 60_000 }).files.get("1001", { signal: controller.signal });
    const settled = expect(result).rejects.toBeInstanceOf(AbortError);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    await settled;
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(1);
  });
});

describe("which requests are retried", () => {
  it("does not retry a POST on 500 (it may have been processed)", async () => {
    let calls = 0;
    server.use(
      http.post(`${BASE_URL}/api/v1/folders`, () => {
        calls++;
        return HttpResponse.json({ error: "boom", message: "boom" }, { status: 500 });
      }),
    );
    await expect(testClient().folders.create({ name: "x" })).rejects.toBeInstanceOf(ServerError);
    expect(calls).toBe(1);
  });

  it("retries a POST on 429 and 408", async () => {
    const statuses = [429, 408];
    server.use(
      http.post(`${BASE_URL}/api/v1/folders/rename/:folderNo`, () => {
        const status = statuses.shift();
        return status ? HttpResponse.json({ error: "wait" }, { status }) : HttpResponse.json(folderRecord);
      }),
    );
    await expect(testClient().folders.rename("F1", "holidays")).resolves.toMatchObject({ folder_no: "F1" });
    expect(statuses).toEqual([]);
  });

  it("retries idempotent methods (GET, PATCH, DELETE) on 5xx and network errors", async () => {
    const failures = { GET: 2, DELETE: 1 };
    server.use(
      http.get(`${BASE_URL}/api/v1/files/:fileNo`, () =>
        failures.GET-- > 0 ? HttpResponse.error() : HttpResponse.json(details),
      ),
      http.delete(`${BASE_URL}/api/v1/files/:fileNo`, () =>
        failures.DELETE-- > 0
          ? HttpResponse.json({ error: "busy" }, { status: 503 })
          : HttpResponse.json({ message: "File deleted" }),
      ),
    );
    const client = testClient();
    await expect(client.files.get("1001")).resolves.toMatchObject({ file_no: "1001" });
    await expect(client.files.delete("1001")).resolves.toEqual({ message: "File deleted" });
  });

  it("does not retry a POST on an ambiguous network error", async () => {
    let calls = 0;
    server.use(
      http.post(`${BASE_URL}/api/v1/folders`, () => {
        calls++;
        return HttpResponse.error();
      }),
    );
    const error = await testClient()
      .folders.create({ name: "x" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: "CONNECTION_ERROR", requestNotSent: false });
    expect(calls).toBe(1);
  });

  it("retries a POST when the connection was refused (nothing was sent)", async () => {
    const refused = await refusedTarget(server);
    const client = testClient({ baseUrl: refused.baseUrl, fetch: refused.fetch, maxRetries: 2 });
    const error = await client.folders.create({ name: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ requestNotSent: true });
    expect(refused.attempts).toBe(3);
  });

  it("the browser upload entry does not look for refused connections: a POST is sent once", async () => {
    // Browsers never say why a fetch failed; @trove/sdk/upload leaves the check to the Node entry.
    const refused = await refusedTarget(server);
    const client = createUploadClient(
      testOptions({ baseUrl: refused.baseUrl, fetch: refused.fetch, maxRetries: 2 }),
    );
    const error = await client.uploadFromUrl("https://example.com/cat.jpg").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ requestNotSent: false });
    expect(refused.attempts).toBe(1);
  });

  it("a client timeout is a TimeoutError, retried for GET only", async () => {
    let gets = 0;
    let posts = 0;
    server.use(
      http.get(`${BASE_URL}/api/v1/files/:fileNo`, async () => {
        gets++;
        await new Promise((resolve) => setTimeout(resolve, 200));
        return HttpResponse.json(details);
      }),
      http.post(`${BASE_URL}/api/v1/folders`, async () => {
        posts++;
        await new Promise((resolve) => setTimeout(resolve, 200));
        return HttpResponse.json({ name: "x", folder_no: "F1" });
      }),
    );
    const client = testClient({ timeout: 20, maxRetries: 1 });
    await expect(client.files.get("1001")).rejects.toMatchObject({ name: "TimeoutError", code: "TIMEOUT" });
    await expect(client.folders.create({ name: "x" })).rejects.toBeInstanceOf(TimeoutError);
    expect(gets).toBe(2);
    expect(posts).toBe(1);
  });
});

// createClient retries through ky, createUploadClient through its own loop, parts of both through
// that loop: the same rule and the same waits (retry-policy.ts), checked here on the requests both
// make (a remote-URL upload, a POST; a part PUT).
describe.each([
  ["createClient (ky)", (options = {}) => testClient(options)],
  ["createUploadClient (fetch)", (options = {}) => createUploadClient(testOptions(options))],
])("%s", (_name, makeClient) => {
  const remote = (respond: (attempt: number) => Response) => {
    const { times, mark } = arrivals();
    server.use(
      http.post(`${BASE_URL}/api/v1/uploads/remote`, () => {
        mark();
        return respond(times.length);
      }),
    );
    return times;
  };

  it("a 429 POST waits retryAfterSeconds from the body, then succeeds", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const times = remote((attempt) =>
      attempt === 1
        ? HttpResponse.json({ error: "e", message: "m", retryAfterSeconds: 2 }, { status: 429 })
        : HttpResponse.json(flatUploadResponse),
    );
    const result = makeClient({ maxRetryDelay: 60_000 }).uploadFromUrl("https://example.com/cat.jpg");
    await vi.advanceTimersByTimeAsync(1999);
    expect(times).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(times).toHaveLength(2);
    await expect(result).resolves.toMatchObject({ file_no: flatUploadResponse.file_no });
  });

  it("without a server wait, waits the one backoff: full jitter under a ceiling capped at maxRetryDelay", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    vi.spyOn(Math, "random").mockReturnValue(0.75);
    const times = remote((attempt) =>
      attempt <= 3
        ? HttpResponse.json({ error: "e", message: "m" }, { status: 429 })
        : HttpResponse.json(flatUploadResponse),
    );
    const result = makeClient({ maxRetries: 3, maxRetryDelay: 1000 }).uploadFromUrl(
      "https://example.com/cat.jpg",
    );
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(result).resolves.toMatchObject({ file_no: flatUploadResponse.file_no });
    // Ceilings 500, 1000 and 2000 capped at 1000: three quarters of each, never ky's own backoff.
    expect(gapsBetween(times)).toEqual([375, 750, 750]);
  });

  it("a part PUT that fails waits the same backoff before it is sent again", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    vi.spyOn(Math, "random").mockReturnValue(0.75);
    const { times, mark } = arrivals();
    const storage = fakeMultipart(server, {
      size: 2048,
      partSize: 1024,
      onPart: (index) => {
        if (index !== 0) return undefined;
        mark();
        return times.length <= 3 ? HttpResponse.text("down", { status: 503 }) : undefined;
      },
    });
    const task = makeClient({ maxRetries: 3, maxRetryDelay: 1000, multipartThreshold: 1000 }).upload(
      patternBytes(2048),
      { fileName: "big.bin", concurrency: 1 },
    );
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(task.promise).resolves.toMatchObject({ file_no: "2001" });
    expect(storage.stored.size).toBe(2);
    expect(gapsBetween(times)).toEqual([375, 750, 750]);
  });

  it("a 503 POST is not sent again, even with Retry-After: it may have been processed", async () => {
    const times = remote(() =>
      HttpResponse.json({ error: "e", message: "m" }, { status: 503, headers: { "retry-after": "0" } }),
    );
    const error = await makeClient()
      .uploadFromUrl("https://example.com/cat.jpg")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE", retryAfterSeconds: 0 });
    expect(times).toHaveLength(1);
  });

  it("gives up after maxRetries 429s with the last TroveError", async () => {
    const times = remote(() =>
      HttpResponse.json({ error: "e", message: "m", retryAfterSeconds: 0 }, { status: 429 }),
    );
    const error = await makeClient({ maxRetries: 2 })
      .uploadFromUrl("https://example.com/cat.jpg")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(times).toHaveLength(3);
  });
});

describe("request ids", () => {
  it("createClient sends one x-request-id per call, the same on each of its retries", async () => {
    const seen: (string | null)[] = [];
    server.use(
      http.get(`${BASE_URL}/api/v1/files/:fileNo`, ({ request }) => {
        seen.push(request.headers.get("x-request-id"));
        return seen.length === 1 ? serverError() : HttpResponse.json(details);
      }),
    );
    const client = testClient({ maxRetryDelay: 0 });
    await client.files.get("1001");
    await client.files.get("1001");
    expect(seen).toHaveLength(3);
    expect(seen[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[2]).not.toBe(seen[0]);
  });

  it("the id the server answers with is the error's requestId", async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/files/:fileNo`, ({ request }) =>
        HttpResponse.json(
          { error: "File not found" },
          { status: 404, headers: { "x-request-id": request.headers.get("x-request-id") ?? "" } },
        ),
      ),
    );
    const error = await testClient()
      .files.get("1001")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });
});
