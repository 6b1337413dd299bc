import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogs, createTestApp, PROBE, probeRoutes, type TestApp } from "./support/index.js";

describe("error envelopes over HTTP", () => {
  let t: TestApp;
  const logs = captureLogs();
  beforeAll(async () => {
    t = await createTestApp({
      routes: [probeRoutes],
      logger: { stream: logs.stream, level: "info" },
      config: { bodyLimit: 4096 },
    });
  });
  afterAll(async () => {
    await t.close();
  });
  const auth = () => ({ "x-api-key": t.keys.private });
  const post = (url: string, payload: string, contentType = "application/json") =>
    t.app.inject({ method: "POST", url, payload, headers: { ...auth(), "content-type": contentType } });

  it("malformed JSON is 400 in each group's 400 shape", async () => {
    const cases: Array<[string, (body: Record<string, unknown>) => void]> = [
      [
        PROBE.upload,
        (b) =>
          expect(b).toEqual({
            error: "Validation failed",
            success: false,
            errorCode: "VALIDATION_FAILED",
            message: "Malformed JSON in request body",
          }),
      ],
      [
        PROBE.multipart,
        (b) => expect(b).toEqual({ success: false, error: "Malformed JSON in request body" }),
      ],
      [
        PROBE.filesValidate,
        (b) => expect(b).toEqual({ error: "Validation failed", message: "Malformed JSON in request body" }),
      ],
      [
        PROBE.folderCreate,
        (b) => expect(b).toEqual({ success: false, error: "Malformed JSON in request body" }),
      ],
      [
        PROBE.sources,
        (b) => expect(b).toEqual({ error: "Validation failed", message: "Malformed JSON in request body" }),
      ],
    ];
    for (const [url, check] of cases) {
      const res = await post(url, '{"name": ');
      expect(res.statusCode, url).toBe(400);
      check(res.json());
    }
  });

  it("other folder 400s use { error: 'Validation failed', message }", async () => {
    const res = await t.app.inject({
      method: "PATCH",
      url: PROBE.folderRename("abc"),
      payload: "{",
      headers: { ...auth(), "content-type": "application/json" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: "Validation failed", message: "Malformed JSON in request body" });
  });

  it("an unsupported content type is 415 in the group's 400 shape", async () => {
    const files = await post(PROBE.filesValidate, "<x/>", "application/xml");
    expect(files.statusCode).toBe(415);
    expect(files.json()).toEqual({ error: "Unsupported Media Type", message: "Unsupported content type" });
    const multipart = await post(PROBE.multipart, "<x/>", "application/xml");
    expect(multipart.statusCode).toBe(415);
    expect(multipart.json()).toEqual({ success: false, error: "Unsupported content type" });
    const upload = await post(PROBE.upload, "<x/>", "application/xml");
    expect(upload.statusCode).toBe(415);
    expect(upload.json()).toMatchObject({ success: false, errorCode: "UNSUPPORTED_MEDIA_TYPE" });
  });

  it("a body over the limit is 413", async () => {
    const big = JSON.stringify({ name: "x".repeat(10_000) });
    const upload = await post(PROBE.upload, big);
    expect(upload.statusCode).toBe(413);
    expect(upload.json()).toEqual({
      error: "Payload Too Large",
      success: false,
      errorCode: "FILE_TOO_LARGE",
      message: "Request body is too large",
    });
    const files = await post(PROBE.filesValidate, big);
    expect(files.statusCode).toBe(413);
    expect(files.json()).toEqual({ error: "Payload Too Large", message: "Request body is too large" });
  });

  it("an empty JSON body is 400, not 500", async () => {
    const res = await post(PROBE.filesValidate, "");
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("Validation failed");
  });

  it("a zod error thrown by a handler is 400 with the issues", async () => {
    const res = await post(PROBE.filesValidate, JSON.stringify({ name: "" }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: "Validation failed", message: expect.stringMatching(/^name: /) });
  });

  it("malformed ids in the path are the group's 404", async () => {
    for (const bad of ["abc", "0", "-1", "1.5", "99999999999999999999", "%00"]) {
      const res = await t.app.inject({ method: "GET", url: PROBE.fileByNo(bad), headers: auth() });
      expect(res.statusCode, bad).toBe(404);
      expect(res.json()).toEqual({ error: "File not found" });
    }
    const ok = await t.app.inject({ method: "GET", url: PROBE.fileByNo("42"), headers: auth() });
    expect(ok.json()).toEqual({ fileNo: "42" });
    const source = await t.app.inject({
      method: "GET",
      url: PROBE.sourceById("not-a-uuid"),
      headers: auth(),
    });
    expect(source.statusCode).toBe(404);
    expect(source.json()).toEqual({ error: "Source not found" });
  });

  it("unknown routes are 404 { error, message } with no key needed", async () => {
    const res = await t.app.inject({ method: "GET", url: "/x?api_key=secret" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "Not Found", message: "Route GET /x not found" });
    const api = await t.app.inject({ method: "DELETE", url: "/api/v1/nothing" });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: "Not Found", message: "Route DELETE /api/v1/nothing not found" });
  });

  it("unexpected errors are 500 in the group's shape, without internals, logged with the request id", async () => {
    const files = await t.app.inject({
      method: "GET",
      url: PROBE.filesBoom,
      headers: { ...auth(), "x-request-id": "req-boom-1" },
    });
    expect(files.statusCode).toBe(500);
    expect(files.json()).toEqual({ error: "Internal Server Error", message: "An unexpected error occurred" });
    expect(files.body).not.toContain("hunter2");
    expect(files.body).not.toContain("at ");
    const upload = await t.app.inject({ method: "GET", url: PROBE.uploadBoom, headers: auth() });
    expect(upload.json()).toEqual({
      error: "Internal Server Error",
      success: false,
      errorCode: "INTERNAL_ERROR",
      message: "An unexpected error occurred",
    });
    const multipart = await t.app.inject({ method: "GET", url: PROBE.multipartBoom, headers: auth() });
    expect(multipart.json()).toEqual({ success: false, error: "Internal Server Error" });
    const logged = logs.lines().find((line) => line.reqId === "req-boom-1" && line.level === 50);
    expect(logged?.msg).toBe("request failed");
    expect(JSON.stringify(logged)).toContain("hunter2");
  });

  it("a database or storage out of reach is 503 with Retry-After in the group's shape, without internals", async () => {
    const answers = await Promise.all(
      (["uploads", "multipart", "files"] as const).map((group) =>
        t.app.inject({ method: "GET", url: PROBE.outage(group), headers: auth() }),
      ),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(503);
      expect(res.headers["retry-after"]).toBe("5");
      expect(res.body).not.toContain("hunter2");
    }
    const message = "Service temporarily unavailable; retry in 5 seconds";
    expect(answers.map((res) => res.json())).toEqual([
      { error: "Service Unavailable", success: false, errorCode: "SERVICE_UNAVAILABLE", message },
      { success: false, error: message },
      { error: "Service Unavailable", message },
    ]);
  });

  it("HttpError 409 renders per group", async () => {
    const res = await t.app.inject({ method: "GET", url: PROBE.filesConflict, headers: auth() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: "Conflict", message: "Name already used" });
  });

  it("bad percent-encoding in the URL is a 400, not a 5xx", async () => {
    const res = await t.app.inject({ method: "GET", url: PROBE.sourceById("%E0%A4%A"), headers: auth() });
    expect(res.statusCode).toBeLessThan(500);
    expect([400, 404]).toContain(res.statusCode);
  });

  it("garbage query strings and headers never produce a 5xx", async () => {
    const urls = [
      "/api/v1/files?page=%ZZ&limit[]=1&&&=",
      `/api/v1/files?${"a=1&".repeat(2000)}`,
      "/api/v1/folders?name=%00%FF",
      "/assets/%ZZ/x",
    ];
    for (const url of urls) {
      const res = await t.app.inject({ method: "GET", url, headers: auth() });
      expect(res.statusCode, url).toBeLessThan(500);
    }
    const weird = await t.app.inject({
      method: "POST",
      url: PROBE.filesValidate,
      headers: { ...auth(), "content-type": "application/json; charset=utf-16" },
      payload: "{}",
    });
    expect(weird.statusCode).toBeLessThan(500);
  });
});
