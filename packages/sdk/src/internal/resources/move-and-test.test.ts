import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { BASE_URL, testClient, useMswServer } from "../../../test/support/msw-server.js";
import { ConflictError, NotFoundError, ValidationError } from "../errors.js";

const server = useMswServer();
const SOURCE_ID = "0190f1c2-4b5a-7c3d-8e9f-0a1b2c3d4e5f";

describe("files.move", () => {
  it("sends file_nos and folder_no (null for the root) and returns { moved }", async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(`${BASE_URL}/api/v1/files/move`, async ({ request }) => {
        const body = (await request.json()) as { file_nos: string[] };
        bodies.push(body);
        return HttpResponse.json({ success: true, data: { moved: body.file_nos.length } });
      }),
    );
    expect(await testClient().files.move(["12", "13"], "f1a2b3")).toEqual({ moved: 2 });
    expect(await testClient().files.move(["12"], null)).toEqual({ moved: 1 });
    expect(bodies).toEqual([
      { file_nos: ["12", "13"], folder_no: "f1a2b3" },
      { file_nos: ["12"], folder_no: null },
    ]);
  });

  it("maps the files group's 404, 409 and 400 to their errors", async () => {
    const answers = [
      HttpResponse.json({ error: "File 99 not found" }, { status: 404 }),
      HttpResponse.json(
        { error: "Conflict", message: 'A file named "a.png" already exists' },
        { status: 409 },
      ),
      HttpResponse.json(
        { error: "Bad Request", message: "file_nos must not repeat a file" },
        { status: 400 },
      ),
    ];
    server.use(http.post(`${BASE_URL}/api/v1/files/move`, () => answers.shift()));
    const client = testClient();
    await expect(client.files.move(["99"], null)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.files.move(["1"], "x")).rejects.toBeInstanceOf(ConflictError);
    await expect(client.files.move(["1", "1"], null)).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("sources.test", () => {
  it("posts to the source's test path and returns the result, a failing origin included", async () => {
    const result = {
      ok: false,
      status: 403,
      message: 'Source "web": the base URL answered HTTP 403',
      elapsed_ms: 12,
    };
    let path = "";
    server.use(
      http.post(`${BASE_URL}/api/v1/sources/:id/test`, ({ request }) => {
        path = new URL(request.url).pathname;
        return HttpResponse.json({ success: true, data: result });
      }),
    );
    expect(await testClient().sources.test(SOURCE_ID)).toEqual(result);
    expect(path).toBe(`/api/v1/sources/${SOURCE_ID}/test`);
  });

  it("an unknown source is NotFoundError", async () => {
    server.use(
      http.post(`${BASE_URL}/api/v1/sources/:id/test`, () =>
        HttpResponse.json({ error: "Source not found" }, { status: 404 }),
      ),
    );
    await expect(testClient().sources.test(SOURCE_ID)).rejects.toBeInstanceOf(NotFoundError);
  });
});
