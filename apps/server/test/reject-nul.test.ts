// PostgreSQL cannot store NUL in text or jsonb: such input is the group's 400, never a 500.
// (Found by the fuzzer: GET /api/v1/folders?parent_folder_no=a%00b answered 500.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./support/index.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("NUL characters in input", () => {
  it.each([
    ["/api/v1/folders?parent_folder_no=a%00b", { error: "Validation failed", message: expect.any(String) }],
    ["/api/v1/folders?name=a%00b", { error: "Validation failed", message: expect.any(String) }],
    ["/api/v1/files?name=a%00b", { error: "Validation failed", message: expect.any(String) }],
    ["/api/v1/files?path=a%00b", { error: "Validation failed", message: expect.any(String) }],
    ["/api/v1/files?folder_no=a%00b", { error: "Validation failed", message: expect.any(String) }],
    ["/api/v1/sources?search=a%00b", { error: "Validation failed", message: expect.any(String) }],
  ])("GET %s is 400 in the group's envelope", async (url, body) => {
    const res = await t.app.inject({ method: "GET", url, headers: { "x-api-key": t.keys.private } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(body);
    expect(res.json().message).toContain("NUL");
  });

  it("refuses a NUL escaped inside JSON bodies (source configuration, multipart metadata)", async () => {
    const source = await t.app.inject({
      method: "POST",
      url: "/api/v1/sources",
      headers: { "x-api-key": t.keys.private, "content-type": "application/json" },
      payload: '{"name":"s","type":"s3","configuration":{"region":"eu\\u0000","bucket":"b"}}',
    });
    expect(source.statusCode).toBe(400);
    const start = await t.app.inject({
      method: "POST",
      url: "/api/v1/multipart/start",
      headers: { "x-api-key": t.keys.public, "content-type": "application/json" },
      payload: '{"file_name":"a.bin","size":10,"format":"x/y","metadata":{"k":"v\\u0000"}}',
    });
    expect(start.statusCode).toBe(400);
    expect(start.json()).toEqual({ success: false, error: "Request body must not contain NUL characters" });
  });

  it("refuses a NUL in upload metadata sent as a JSON string", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads/remote",
      headers: { "x-api-key": t.keys.public, "content-type": "application/json" },
      payload: JSON.stringify({ remote_url: "http://127.0.0.1:9/x.bin", metadata: '{"k":"v\\u0000"}' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, errorCode: "VALIDATION_FAILED" });
  });
});
