import type { UploadTokenResponse } from "@trove/schema";
import { HttpResponse, http } from "msw";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  fileDetails,
  fileListRow,
  fileRecord,
  folderRecord,
  source,
} from "../../../test/support/fixtures.js";
import { BASE_URL, testClient, useMswServer } from "../../../test/support/msw-server.js";
import {
  AuthenticationError,
  ConflictError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
} from "../errors.js";
import type { FileListItem } from "./files.js";

const server = useMswServer();

describe("files", () => {
  it("list sends the query, the key, and exposes thumbanil as thumbnail too", async () => {
    let seen: Request | undefined;
    server.use(
      http.get(`${BASE_URL}/api/v1/files`, ({ request }) => {
        seen = request;
        return HttpResponse.json({
          files: [fileListRow],
          meta: { page: 2, limit: 10, total: 11, hasNext: false, hasPrev: true },
        });
      }),
    );
    const page = await testClient().files.list({ page: 2, limit: 10, sort: "name_asc", tags: ["a", "b"] });
    const url = new URL(seen?.url ?? "");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      page: "2",
      limit: "10",
      sort: "name_asc",
      tags: "a,b",
    });
    expect(seen?.headers.get("x-api-key")).toBe("trove_sk_test");
    expect(page.files[0]?.thumbnail).toBe(fileListRow.thumbanil);
    expect(page.files[0]?.thumbanil).toBe(fileListRow.thumbanil);
    expect(page.meta.hasPrev).toBe(true);
    expectTypeOf(page.files[0]).toEqualTypeOf<FileListItem | undefined>();
  });

  it("listAll walks every page until hasNext is false", async () => {
    const pages: string[] = [];
    server.use(
      http.get(`${BASE_URL}/api/v1/files`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get("page"));
        pages.push(String(page));
        const row = { ...fileListRow, file_no: String(page * 10) };
        return HttpResponse.json({
          files: [row, { ...row, file_no: String(page * 10 + 1) }],
          meta: { page, limit: 2, total: 6, hasNext: page < 3, hasPrev: page > 1 },
        });
      }),
    );
    const fileNos: string[] = [];
    for await (const file of testClient().files.listAll({ limit: 2, name: "cat" })) {
      fileNos.push(file.file_no);
      expect(file.thumbnail).toBe(fileListRow.thumbanil);
    }
    expect(fileNos).toEqual(["10", "11", "20", "21", "30", "31"]);
    expect(pages).toEqual(["1", "2", "3"]);
  });

  it("listAll stops early when the loop breaks (no further page fetched)", async () => {
    let requests = 0;
    server.use(
      http.get(`${BASE_URL}/api/v1/files`, () => {
        requests++;
        return HttpResponse.json({
          files: [fileListRow, fileListRow],
          meta: { page: requests, limit: 2, total: 100, hasNext: true, hasPrev: false },
        });
      }),
    );
    for await (const _ of testClient().files.listAll()) break;
    expect(requests).toBe(1);
  });

  it("get, rename and delete use the file number in the path", async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/files/:fileNo`, ({ params }) =>
        HttpResponse.json({ success: true, data: { ...fileDetails, file_no: params.fileNo } }),
      ),
      http.patch(`${BASE_URL}/api/v1/files/:fileNo/rename`, async ({ request, params }) => {
        const body = (await request.json()) as { name: string };
        return HttpResponse.json({ ...fileRecord, file_no: params.fileNo, name: `${body.name}.jpg` });
      }),
      http.delete(`${BASE_URL}/api/v1/files/:fileNo`, () =>
        HttpResponse.json({ message: "File deleted successfully" }),
      ),
    );
    const client = testClient();
    expect(await client.files.get("1001")).toEqual(fileDetails);
    expect(await client.files.rename("1001", "dog")).toMatchObject({ file_no: "1001", name: "dog.jpg" });
    expect(await client.files.delete("1001")).toEqual({ message: "File deleted successfully" });
  });

  it("rename of a missing file → NotFoundError with code FILE_NOT_FOUND", async () => {
    server.use(
      http.patch(`${BASE_URL}/api/v1/files/:fileNo/rename`, () =>
        HttpResponse.json({ error: "File 9 not found", code: "FILE_NOT_FOUND" }, { status: 404 }),
      ),
    );
    const error = await testClient()
      .files.rename("9", "x")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: "FILE_NOT_FOUND", message: "File 9 not found" });
  });

  it("a 2xx body that does not match the schema is an InvalidResponseError, not a crash", async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/files/:fileNo`, () =>
        HttpResponse.json({ success: true, data: { file_no: 12 } }, { headers: { "x-request-id": "req_9" } }),
      ),
    );
    const error = await testClient()
      .files.get("1001")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ status: 200, code: "INVALID_RESPONSE", requestId: "req_9" });
    expect((error as Error).message).toContain("getFile");
    // zod's first issues, as one line, and the ZodError behind them.
    expect((error as Error).message).toMatch(/response does not match the API: data\.\w+: /);
    expect(((error as Error).cause as Error).cause).toHaveProperty("issues");
  });

  it("a 2xx body that is not JSON is an InvalidResponseError", async () => {
    server.use(http.get(`${BASE_URL}/api/v1/files`, () => HttpResponse.text("<html>portal</html>")));
    await expect(testClient().files.list()).rejects.toMatchObject({
      name: "InvalidResponseError",
      body: "<html>portal</html>",
    });
  });

  it("a 401 envelope from the files group → AuthenticationError", async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/files`, () =>
        HttpResponse.json(
          { success: false, error: "Unauthorized", message: "Invalid or missing API key" },
          { status: 401, headers: { "x-request-id": "req_401" } },
        ),
      ),
    );
    const error = await testClient()
      .files.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED", requestId: "req_401" });
  });

  it("encodes path parameters", async () => {
    let path = "";
    server.use(
      http.delete(`${BASE_URL}/api/v1/folders/*`, ({ request }) => {
        path = new URL(request.url).pathname;
        return HttpResponse.json({ message: "ok" });
      }),
    );
    await testClient().folders.delete("a/../b");
    expect(path).toBe("/api/v1/folders/a%2F..%2Fb");
  });
});

describe("folders", () => {
  it("create, list, rename, delete", async () => {
    server.use(
      http.post(`${BASE_URL}/api/v1/folders`, async ({ request }) => {
        expect(await request.json()).toEqual({ name: "holidays", parent_folder_no: "P1" });
        return HttpResponse.json({ name: "holidays", folder_no: "F1" });
      }),
      http.get(`${BASE_URL}/api/v1/folders`, ({ request }) => {
        expect(new URL(request.url).searchParams.get("parent_folder_no")).toBe("P1");
        return HttpResponse.json({
          folders: [
            {
              folder_no: "F1",
              name: "holidays",
              created_at: fileRecord.created_at,
              total_items: 2,
              total_size: 22,
            },
          ],
        });
      }),
      http.post(`${BASE_URL}/api/v1/folders/rename/:folderNo`, () => HttpResponse.json(folderRecord)),
      http.delete(`${BASE_URL}/api/v1/folders/:folderNo`, () =>
        HttpResponse.json({ success: false, error: "Folder is not empty" }, { status: 409 }),
      ),
    );
    const client = testClient();
    expect(await client.folders.create({ name: "holidays", parent_folder_no: "P1" })).toEqual({
      name: "holidays",
      folder_no: "F1",
    });
    expect((await client.folders.list({ parent_folder_no: "P1" })).folders).toHaveLength(1);
    expect(await client.folders.rename("F1", "holidays")).toEqual(folderRecord);
    await expect(client.folders.delete("F1")).rejects.toBeInstanceOf(ConflictError);
  });
});

describe("sources", () => {
  it("create, get, update, delete (204)", async () => {
    server.use(
      http.post(`${BASE_URL}/api/v1/sources`, () =>
        HttpResponse.json({ success: true, data: source(1) }, { status: 201 }),
      ),
      http.get(`${BASE_URL}/api/v1/sources/:id`, () => HttpResponse.json({ success: true, data: source(1) })),
      http.patch(`${BASE_URL}/api/v1/sources/:id`, async ({ request }) => {
        const body = (await request.json()) as { name: string };
        return HttpResponse.json({ success: true, data: { ...source(1), name: body.name } });
      }),
      http.delete(`${BASE_URL}/api/v1/sources/:id`, () => new HttpResponse(null, { status: 204 })),
    );
    const client = testClient();
    const created = await client.sources.create({
      name: "origin-1",
      type: "s3",
      configuration: { region: "eu-west-1", bucket: "media", access_key: "AK", secret_key: "SK" },
    });
    expect(created.configuration).toMatchObject({ access_key: "********" });
    expect(await client.sources.get(created.id)).toEqual(source(1));
    expect((await client.sources.update(created.id, { name: "renamed" })).name).toBe("renamed");
    await expect(client.sources.delete(created.id)).resolves.toBeUndefined();
  });

  it("listAll walks pages until hasMore is false", async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/sources`, ({ request }) => {
        const params = new URL(request.url).searchParams;
        const page = Number(params.get("page"));
        expect(params.get("type")).toBe("s3");
        return HttpResponse.json({
          sources: [source(page * 2), source(page * 2 + 1)],
          meta: { page, limit: 2, total: 4, hasMore: page < 2 },
        });
      }),
    );
    const names: string[] = [];
    for await (const item of testClient().sources.listAll({ limit: 2, type: "s3" })) names.push(item.name);
    expect(names).toEqual(["origin-2", "origin-3", "origin-4", "origin-5"]);
  });

  it("a duplicate name → ConflictError with the spec's message", async () => {
    server.use(
      http.post(`${BASE_URL}/api/v1/sources`, () =>
        HttpResponse.json({ error: "Origin name already exists in this workspace" }, { status: 409 }),
      ),
    );
    await expect(
      testClient().sources.create({
        name: "dup",
        type: "image_source",
        configuration: { base_url: "https://x.test" },
      }),
    ).rejects.toMatchObject({
      name: "ConflictError",
      status: 409,
      message: "Origin name already exists in this workspace",
    });
  });
});

describe("upload tokens", () => {
  const minted: UploadTokenResponse = {
    token: "trove_ut_0123456789abcdefghijABCDEFGHIJ01",
    expires_at: "2026-01-02T03:14:05.000Z",
    max_files: 1,
    policy: {
      folder: "uploads",
      folder_match: "exact",
      max_file_size: 10_485_760,
      allowed_types: ["image/*"],
      allow_remote: false,
      allow_multipart: true,
    },
  };

  it("create sends the policy with the private key and returns the parsed token", async () => {
    let seen: { body: unknown; key: string | null; type: string | null } | undefined;
    server.use(
      http.post(`${BASE_URL}/api/v1/uploads/tokens`, async ({ request }) => {
        seen = {
          body: await request.json(),
          key: request.headers.get("x-api-key"),
          type: request.headers.get("content-type"),
        };
        return HttpResponse.json(minted);
      }),
    );
    const policy = {
      folder: "uploads",
      max_file_size: 10_485_760,
      allowed_types: ["image/*"],
      expires_in: 300,
      tags: ["from-page"],
    };
    const response = await testClient().uploadTokens.create(policy);
    expect(seen).toEqual({ body: policy, key: "trove_sk_test", type: "application/json" });
    expect(response).toEqual(minted);
    expectTypeOf(response).toEqualTypeOf<UploadTokenResponse>();
  });

  it("create with no policy sends {} (the server's defaults: one file, ten minutes)", async () => {
    let body: unknown;
    server.use(
      http.post(`${BASE_URL}/api/v1/uploads/tokens`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(minted);
      }),
    );
    await testClient().uploadTokens.create();
    expect(body).toEqual({});
  });

  it("a public key is refused with 403; a bad policy with 400; a response without a token is invalid", async () => {
    const answers = [
      HttpResponse.json(
        { error: "Forbidden", success: false, errorCode: "FORBIDDEN", message: "needs a private key" },
        { status: 403 },
      ),
      HttpResponse.json(
        { error: "Validation failed", success: false, errorCode: "VALIDATION_FAILED", message: "max_files" },
        { status: 400 },
      ),
      HttpResponse.json({ ...minted, token: undefined }),
    ];
    server.use(http.post(`${BASE_URL}/api/v1/uploads/tokens`, () => answers.shift()));
    const client = testClient();
    await expect(client.uploadTokens.create()).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(client.uploadTokens.create({ max_files: 5000 })).rejects.toMatchObject({
      name: "ValidationError",
      code: "VALIDATION_FAILED",
      status: 400,
    });
    await expect(client.uploadTokens.create()).rejects.toBeInstanceOf(InvalidResponseError);
  });
});
