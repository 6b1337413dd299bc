import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import { fakeMultipart, patternBytes } from "../../../test/support/fake-multipart.js";
import { flatUploadResponse } from "../../../test/support/fixtures.js";
import { BASE_URL, testOptions, useMswServer } from "../../../test/support/msw-server.js";
import {
  AuthenticationError,
  PermissionDeniedError,
  TroveError,
  type TroveErrorCode,
  ValidationError,
} from "../errors.js";
import type { UploadTokenSource } from "./client-options.js";
import { createUploadClient } from "./create-upload-client.js";

const server = useMswServer();

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A getter that hands out trove_ut_1, trove_ut_2, … and counts its calls. */
function tokenGetter() {
  const getter = vi.fn(async () => `trove_ut_${getter.mock.calls.length}`);
  return getter;
}

function tokenClient(token: UploadTokenSource, extra = {}) {
  const { apiKey: _, ...options } = testOptions(extra);
  return createUploadClient({ ...options, token });
}

/** Upload-group refusal envelope, as the server sends it. */
function refusal(status: number, errorCode: TroveErrorCode, message = "refused") {
  return HttpResponse.json({ error: "Refused", success: false, errorCode, message }, { status });
}

/** Direct uploads answered by `respond`, recording the key each one carried. */
function directUploads(respond: (call: number) => Response = () => HttpResponse.json(flatUploadResponse)) {
  const keys: (string | null)[] = [];
  server.use(
    http.post(`${BASE_URL}/api/v1/uploads`, ({ request }) => {
      keys.push(request.headers.get("x-api-key"));
      return respond(keys.length);
    }),
  );
  return keys;
}

const file = () => new File(["hello"], "cat.jpg", { type: "image/jpeg" });

describe("upload tokens in the upload client", () => {
  it("calls the getter once per upload and sends its token in x-api-key", async () => {
    const keys = directUploads();
    server.use(
      http.post(`${BASE_URL}/api/v1/uploads/remote`, ({ request }) => {
        keys.push(request.headers.get("x-api-key"));
        return HttpResponse.json(flatUploadResponse);
      }),
    );
    const token = tokenGetter();
    const client = tokenClient(token);
    expect(token).not.toHaveBeenCalled(); // nothing is fetched before an upload needs it
    await client.upload(file());
    await client.upload(file());
    await client.uploadFromUrl("https://example.com/a.jpg");
    expect(keys).toEqual(["trove_ut_1", "trove_ut_2", "trove_ut_3"]);
    expect(token).toHaveBeenCalledTimes(3);
  });

  it("keeps one token for every request of a multipart upload", async () => {
    const keys: (string | null)[] = [];
    server.events.on("request:start", ({ request }) => {
      if (request.url.startsWith(BASE_URL)) keys.push(request.headers.get("x-api-key"));
    });
    const storage = fakeMultipart(server, { size: 3000, partSize: 1024 });
    const token = tokenGetter();
    await tokenClient(token, { multipartThreshold: 1000 }).upload(patternBytes(3000), {
      fileName: "big.bin",
    });
    server.events.removeAllListeners();
    expect(storage.completes).toHaveLength(1);
    expect(keys).toEqual(["trove_ut_1", "trove_ut_1"]); // start and complete
    for (const headers of storage.putHeaders) expect(headers.get("x-api-key")).toBeNull();
    expect(token).toHaveBeenCalledTimes(1);
  });

  it("a TOKEN_EXPIRED refusal gets exactly one new token, and the request is sent again with it", async () => {
    const keys = directUploads((call) =>
      call === 1 ? refusal(401, "TOKEN_EXPIRED") : HttpResponse.json(flatUploadResponse),
    );
    const token = tokenGetter();
    const result = await tokenClient(token).upload(file());
    expect(result.file_no).toBe(flatUploadResponse.file_no);
    expect(keys).toEqual(["trove_ut_1", "trove_ut_2"]);
    expect(token).toHaveBeenCalledTimes(2);
  });

  it("a second TOKEN_EXPIRED surfaces as an AuthenticationError with that code", async () => {
    const keys = directUploads(() => refusal(401, "TOKEN_EXPIRED", "The upload token expired"));
    const token = tokenGetter();
    const error = await tokenClient(token)
      .upload(file())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: "TOKEN_EXPIRED", status: 401 });
    expect(keys).toEqual(["trove_ut_1", "trove_ut_2"]);
    expect(token).toHaveBeenCalledTimes(2);
  });

  it("renews an expired token for multipart complete (whose 401 has no code) without starting again", async () => {
    const storage = fakeMultipart(server, { size: 3000, partSize: 1024 });
    const completeKeys: (string | null)[] = [];
    server.use(
      http.post(`${BASE_URL}/api/v1/multipart/complete`, ({ request }) => {
        completeKeys.push(request.headers.get("x-api-key"));
        if (completeKeys.length > 1) return undefined; // the fake's handler answers
        return HttpResponse.json(
          { success: false, error: "Unauthorized", message: "The upload token expired" },
          { status: 401 },
        );
      }),
    );
    const token = tokenGetter();
    await tokenClient(token, { multipartThreshold: 1000 }).upload(patternBytes(3000), {
      fileName: "big.bin",
    });
    expect(storage.starts).toHaveLength(1);
    expect(completeKeys).toEqual(["trove_ut_1", "trove_ut_2"]);
    expect(storage.completes).toHaveLength(1);
  });

  it("a fixed token string is sent as it is and never renewed", async () => {
    const keys = directUploads(() => refusal(401, "TOKEN_EXPIRED"));
    const error = await tokenClient("trove_ut_fixed")
      .upload(file())
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "TOKEN_EXPIRED" });
    expect(keys).toEqual(["trove_ut_fixed"]);
  });

  it("a getter that fails or returns no token → TOKEN_UNAVAILABLE, and nothing is sent", async () => {
    const keys = directUploads();
    const broken = new Error("backend down");
    const failures: [() => unknown, (cause: unknown) => void][] = [
      [() => Promise.reject(broken), (cause) => expect(cause).toBe(broken)],
      [async () => "  ", (cause) => expect(cause).toBeUndefined()],
      [() => undefined, (cause) => expect(cause).toBeInstanceOf(TypeError)],
    ];
    for (const [token, checkCause] of failures) {
      const error = await tokenClient(token as () => string)
        .upload(file())
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TroveError);
      expect(error).toMatchObject({ code: "TOKEN_UNAVAILABLE" });
      checkCause((error as TroveError).cause);
    }
    expect(keys).toEqual([]);
  });

  it("trims the token (a text answer may end with a newline)", async () => {
    const keys = directUploads();
    await tokenClient(async () => "trove_ut_abc\n").upload(file());
    expect(keys).toEqual(["trove_ut_abc"]);
  });

  it("policy refusals surface with their codes and are not retried or renewed", async () => {
    const refusals = [
      [415, "TYPE_NOT_ALLOWED", ValidationError],
      [403, "FOLDER_NOT_ALLOWED", PermissionDeniedError],
      [403, "REMOTE_NOT_ALLOWED", PermissionDeniedError],
      [403, "TOKEN_EXHAUSTED", PermissionDeniedError],
      [413, "FILE_TOO_LARGE", ValidationError],
    ] as const;
    for (const [status, code, ErrorClass] of refusals) {
      const keys = directUploads(() => refusal(status, code));
      const token = tokenGetter();
      const error = await tokenClient(token)
        .upload(file())
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error).toMatchObject({ code, status });
      expect(keys).toHaveLength(1);
      expect(token).toHaveBeenCalledTimes(1);
    }
  });

  it("is not held to the private-key guard: a page may use tokens", async () => {
    vi.stubGlobal("document", {});
    const keys = directUploads();
    await tokenClient(tokenGetter()).upload(file());
    await tokenClient("trove_ut_fixed").upload(file());
    expect(keys).toEqual(["trove_ut_1", "trove_ut_fixed"]);
    // A private key passed as a fixed token is still a private key.
    expect(() => tokenClient("trove_sk_test")).toThrow(
      expect.objectContaining({ code: "PRIVATE_KEY_IN_BROWSER" }),
    );
  });

  it("wants exactly one of apiKey and token, in the types and at run time", () => {
    const { apiKey: _, ...options } = testOptions();
    expect(() => createUploadClient(options as never)).toThrow(/apiKey or token is required/);
    expect(() => createUploadClient({ ...options, token: "" })).toThrow(/apiKey or token is required/);
    expect(() => createUploadClient({ ...options, token: 42 as never })).toThrow(
      /apiKey or token is required/,
    );
    const typesOnly = () => [
      // @ts-expect-error: apiKey and token together
      createUploadClient({ ...options, apiKey: "trove_pk_x", token: "trove_ut_x" }),
      // @ts-expect-error: neither
      createUploadClient(options),
    ];
    expect(typesOnly).toBeTypeOf("function");
  });
});

describe("error codes", () => {
  it("are a closed union: server codes, the new policy codes and the SDK's own, nothing else", () => {
    expectTypeOf<"TOKEN_EXPIRED">().toExtend<TroveErrorCode>();
    expectTypeOf<"TYPE_NOT_ALLOWED">().toExtend<TroveErrorCode>();
    expectTypeOf<"ABORTED">().toExtend<TroveErrorCode>();
    expectTypeOf<"ABORTD">().not.toExtend<TroveErrorCode>();
    expectTypeOf<string>().not.toExtend<TroveErrorCode>();
    const check = (error: TroveError) =>
      // @ts-expect-error: a misspelt code does not compile
      error.code === "ABORTD";
    expect(check(new TroveError("x", { code: "ABORTED" }))).toBe(false);
  });
});
