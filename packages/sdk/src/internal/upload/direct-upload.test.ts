import { HttpResponse, http, type JsonBodyType } from "msw";
import { describe, expect, it } from "vitest";
import {
  envelopeUploadResponse,
  flatUploadResponse,
  hostedUploadResponse,
  wrappedUploadResponse,
} from "../../../test/support/fixtures.js";
import { BASE_URL, testClient, testOptions, useMswServer } from "../../../test/support/msw-server.js";
import { buildTransform } from "../../transform.js";
import { createUploadClient } from "../client/create-upload-client.js";
import { InvalidResponseError, RateLimitError, ServerError, ValidationError } from "../errors.js";
import type { UploadProgress } from "./upload-options.js";

const server = useMswServer();

function captureUpload(respond: () => Response = () => HttpResponse.json(flatUploadResponse)) {
  const seen: { form?: FormData; headers?: Headers; calls: number } = { calls: 0 };
  server.use(
    http.post(`${BASE_URL}/api/v1/uploads`, async ({ request }) => {
      seen.calls++;
      seen.headers = request.headers;
      seen.form = await request.formData();
      return respond();
    }),
  );
  return seen;
}

function uploadedFile(seen: { form?: FormData }): File {
  const file = seen.form?.get("file");
  if (!(file instanceof File)) throw new Error("no file part was sent");
  return file;
}

describe("direct upload", () => {
  it("sends multipart/form-data with the spec's fields, file last", async () => {
    const seen = captureUpload();
    const file = new File(["hello world"], "cat.jpg", { type: "image/jpeg" });
    await testClient().upload(file, {
      folder: "photos/2024",
      tags: ["pets", "cats"],
      transform: buildTransform({ w: 300, h: 300, f: "webp" }),
      metadata: { owner: "ann", n: 1 },
      customId: "my-1",
      randomPrefix: true,
      webhookUrl: "https://hooks.example.com/trove",
      expiresIn: 3600,
    });
    const form = seen.form as FormData;
    expect(seen.headers?.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen.headers?.get("x-api-key")).toBe("trove_sk_test");
    expect(Object.fromEntries([...form].filter(([, value]) => typeof value === "string"))).toEqual({
      file_name: "cat.jpg",
      folder: "photos/2024",
      tags: "pets,cats",
      transform: "w_300,h_300,c_fill,f_webp",
      metadata: '{"owner":"ann","n":1}',
      custom_id: "my-1",
      random_prefix: "true",
      expires_in: "3600",
      webhook_url: "https://hooks.example.com/trove",
    });
    expect([...form.keys()].at(-1)).toBe("file");
    const part = form.get("file") as File;
    expect(part.name).toBe("cat.jpg");
    expect(await part.text()).toBe("hello world");
  });

  it("passes a transform string as written and sends random_prefix false", async () => {
    const seen = captureUpload();
    await testClient().upload(new Blob(["x"]), {
      fileName: "a.png",
      transform: "w_100/e_grayscale",
      randomPrefix: false,
    });
    expect(seen.form?.get("transform")).toBe("w_100/e_grayscale");
    expect(seen.form?.get("random_prefix")).toBe("false");
  });

  it("sends the Blob's own type, else application/octet-stream (no guess from the name); contentType wins", async () => {
    const seen = captureUpload();
    const client = testClient();
    const types: string[] = [];
    for (const [input, contentType] of [
      [new File(["x"], "cat.jpg", { type: "image/jpeg" }), undefined],
      [new Blob(["x"]), undefined],
      [new TextEncoder().encode("x"), undefined],
      [new File(["x"], "cat.jpg", { type: "image/jpeg" }), "image/webp"],
    ] as const) {
      await client.upload(input, { fileName: "a.png", contentType });
      types.push(uploadedFile(seen).type);
    }
    expect(types).toEqual([
      "image/jpeg",
      "application/octet-stream",
      "application/octet-stream",
      "image/webp",
    ]);
  });

  it("accepts ArrayBuffer, Uint8Array and a small web stream", async () => {
    const seen = captureUpload();
    const client = testClient();
    const bytes = new TextEncoder().encode("abc");
    await client.upload(bytes.buffer, { fileName: "a.bin" });
    expect(await uploadedFile(seen).text()).toBe("abc");
    await client.upload(bytes.subarray(1), { fileName: "b.bin" });
    expect(await uploadedFile(seen).text()).toBe("bc");
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("str"));
        controller.enqueue(new TextEncoder().encode("eam"));
        controller.close();
      },
    });
    await client.upload(stream, { fileName: "c.txt" });
    expect(await uploadedFile(seen).text()).toBe("stream");
  });

  it("normalises the flat success body", async () => {
    captureUpload(() => HttpResponse.json(flatUploadResponse));
    const result = await testClient().upload(new File(["hello world"], "cat.jpg"));
    expect(result).toMatchObject({
      file_no: "1001",
      name: "cat.jpg",
      url: flatUploadResponse.url,
      path: "photos/cat.jpg",
      format: "jpg",
      size: 11,
      id: flatUploadResponse.id,
      tags: ["pets"],
      is_duplicate: false,
    });
    expect(result.response).toEqual(flatUploadResponse);
  });

  it("normalises the { success, data } success body to the same type", async () => {
    captureUpload(() => HttpResponse.json(envelopeUploadResponse));
    const result = await testClient().upload(new File(["hello world"], "cat.jpg"));
    expect(result).toMatchObject({
      file_no: "1002",
      name: "cat.jpg",
      url: envelopeUploadResponse.data.url,
      path: "cat.jpg",
      format: "jpg",
      size: 11,
    });
    expect(result).not.toHaveProperty("file_size");
    expect(result.response).toEqual(envelopeUploadResponse);
  });

  it("both shapes also pass the upload-only client's structural checks", async () => {
    const client = createUploadClient(testOptions({ apiKey: "trove_pk_test" }));
    for (const body of [flatUploadResponse, envelopeUploadResponse]) {
      captureUpload(() => HttpResponse.json(body));
      await expect(client.upload(new Blob(["x"]), { fileName: "a.jpg" })).resolves.toMatchObject({
        name: "cat.jpg",
      });
    }
    captureUpload(() => HttpResponse.json({ success: true, data: { file_no: 1 } }));
    await expect(client.upload(new Blob(["x"]), { fileName: "a.jpg" })).rejects.toBeInstanceOf(
      InvalidResponseError,
    );
  });

  // The three success bodies a direct or remote upload may answer with, through both clients: the
  // full client checks them with zod (which would drop unlisted keys), the upload-only one by shape.
  describe.each([
    ["createClient", () => testClient()],
    ["createUploadClient", () => createUploadClient(testOptions({ apiKey: "trove_pk_test" }))],
  ])("%s reads every success body", (_name, client) => {
    const { size: _size, ...flatFields } = flatUploadResponse;
    const upload = async (body: JsonBodyType, remote: boolean) => {
      server.use(
        http.post(`${BASE_URL}/api/v1/uploads`, () => HttpResponse.json(body)),
        http.post(`${BASE_URL}/api/v1/uploads/remote`, () => HttpResponse.json(body)),
      );
      return remote
        ? client().uploadFromUrl("https://example.com/cat.jpg")
        : client().upload(new Blob(["hello world"]), { fileName: "cat.jpg" });
    };

    it.each([false, true])(
      "the wrapped default: every flat field, from data (remote: %s)",
      async (remote) => {
        const result = await upload(wrappedUploadResponse, remote);
        expect(result).toEqual({
          ...flatFields,
          file_no: "1003",
          size: flatUploadResponse.size,
          workspace_no: "ws1",
          response: wrappedUploadResponse,
        });
      },
    );

    it.each([false, true])("the flat form, as it was (remote: %s)", async (remote) => {
      const result = await upload(flatUploadResponse, remote);
      expect(result).toEqual({ ...flatUploadResponse, response: flatUploadResponse });
    });

    it.each([false, true])("the hosted service's nine fields (remote: %s)", async (remote) => {
      const result = await upload(hostedUploadResponse, remote);
      const { file_size, ...rest } = hostedUploadResponse.data;
      expect(result).toEqual({ ...rest, size: file_size, response: hostedUploadResponse });
      expect(result).not.toHaveProperty("mime_type");
    });
  });

  it("an unexpected success body is an InvalidResponseError", async () => {
    captureUpload(() => HttpResponse.json({ ok: true }));
    await expect(testClient().upload(new Blob(["x"]), { fileName: "a.jpg" })).rejects.toMatchObject({
      name: "InvalidResponseError",
      code: "INVALID_RESPONSE",
      body: { ok: true },
    });
  });

  it("maps the upload group's error envelope", async () => {
    captureUpload(() =>
      HttpResponse.json(
        {
          error: "Bad Request",
          success: false,
          errorCode: "INVALID_TRANSFORM",
          message: "q_200: quality must be 1..100",
        },
        { status: 400, headers: { "x-request-id": "req_up" } },
      ),
    );
    const error = await testClient()
      .upload(new Blob(["x"]), { fileName: "a.jpg", transform: "q_200" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: "INVALID_TRANSFORM", requestId: "req_up", status: 400 });
  });

  it("is not retried on 500 (the file may be stored already) but is retried on 429", async () => {
    const fail = captureUpload(() =>
      HttpResponse.json(
        { error: "e", success: false, errorCode: "INTERNAL_ERROR", message: "m" },
        { status: 500 },
      ),
    );
    await expect(testClient().upload(new Blob(["x"]), { fileName: "a.jpg" })).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(fail.calls).toBe(1);

    let limited = 1;
    const retried = captureUpload(() =>
      limited-- > 0
        ? HttpResponse.json(
            { error: "Too Many Requests", message: "m", retryAfterSeconds: 0 },
            { status: 429 },
          )
        : HttpResponse.json(flatUploadResponse),
    );
    await expect(testClient().upload(new Blob(["x"]), { fileName: "a.jpg" })).resolves.toMatchObject({
      file_no: "1001",
    });
    expect(retried.calls).toBe(2);
    expect(await uploadedFile(retried).text()).toBe("x");
  });

  it("gives up on 429 after maxRetries with a RateLimitError", async () => {
    captureUpload(() =>
      HttpResponse.json({ error: "e", message: "m", retryAfterSeconds: 1 }, { status: 429 }),
    );
    await expect(
      testClient({ maxRetries: 1 }).upload(new Blob(["x"]), { fileName: "a.jpg" }),
    ).rejects.toBeInstanceOf(RateLimitError);
  });

  it("reports progress once, confirmed, when fetch is the transport", async () => {
    captureUpload();
    const events: UploadProgress[] = [];
    await testClient().upload(new Blob(["hello world"]), {
      fileName: "a.jpg",
      onProgress: (p) => events.push(p),
    });
    expect(events).toEqual([{ loaded: 11, confirmed: 11, total: 11, percent: 100 }]);
  });

  it("needs a file name for inputs without one, and a supported input", async () => {
    await expect(testClient().upload(new Blob(["x"]))).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(testClient().upload("not a file" as never, { fileName: "a" })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });

  it("uploadFromUrl posts JSON with the remote_url", async () => {
    let body: unknown;
    server.use(
      http.post(`${BASE_URL}/api/v1/uploads/remote`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(envelopeUploadResponse);
      }),
    );
    const result = await testClient().uploadFromUrl("https://example.com/cat.jpg", {
      fileName: "cat.jpg",
      tags: "a, b",
      metadata: { k: "v" },
      randomPrefix: false,
    });
    expect(body).toEqual({
      remote_url: "https://example.com/cat.jpg",
      file_name: "cat.jpg",
      tags: "a,b",
      metadata: '{"k":"v"}',
      random_prefix: "false",
    });
    expect(result).toMatchObject({ file_no: "1002", size: 11 });
  });

  it("is not pausable: pause() returns false and the upload runs to the end unpaused", async () => {
    const seen = captureUpload();
    const task = testClient().upload(new File(["small"], "a.txt"));
    expect(task.pausable).toBe(false);
    expect(task.pause()).toBe(false);
    expect(task.paused).toBe(false);
    await task;
    expect(seen.calls).toBe(1);
  });

  it("a stream of unknown size turns out direct: pausable becomes false before any request", async () => {
    const seen = captureUpload();
    const stream = new Blob(["streamed"]).stream();
    const task = testClient().upload(stream, { fileName: "s.txt" });
    expect(task.pausable).toBe(true);
    await task;
    expect(task.pausable).toBe(false);
    expect(seen.calls).toBe(1);
  });

  it("refuses an empty file before sending anything (EMPTY_FILE), whatever the input", async () => {
    const seen = captureUpload();
    const inputs = [new File([], "empty.png"), new Uint8Array(0), new Blob([]).stream()];
    for (const input of inputs) {
      const failure = testClient().upload(input, { fileName: "empty.png" });
      await expect(failure).rejects.toBeInstanceOf(ValidationError);
      await expect(failure).rejects.toMatchObject({ code: "EMPTY_FILE", message: "File is empty" });
    }
    expect(seen.calls).toBe(0);
  });
});
