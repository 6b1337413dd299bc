/**
 * Reliability 2: the authentication matrix over real HTTP. Every private endpoint with no key, a
 * bad key, a public key and another workspace's private key (401, 401, 403, and 404 for a
 * resource of workspace A asked for with workspace B's key), with the exact body of its group;
 * every upload endpoint (1, 2, 3, 5) accepts the public key.
 */
import { ENDPOINTS, errorShapeFor } from "@trove/schema";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, reportFigures, uploadSmallFile } from "../support/reliability-profile";

const UNAUTHORIZED = { success: false, error: "Unauthorized", message: "Invalid or missing API key" };
const SOURCES_UNAUTHORIZED = {
  error: "Invalid API key.",
  message: "The API key is invalid, inactive, or deleted.",
};
const UPLOAD_UNAUTHORIZED = { ...UNAUTHORIZED, errorCode: "UNAUTHORIZED" };

type Ids = { fileNo: string; folderNo: string; sourceId: string };

function concretePath(path: string, ids: Ids): string {
  return path
    .replace(":fileNo", ids.fileNo)
    .replace(":folderNo", ids.folderNo)
    .replace(":sourceId", ids.sourceId);
}

/** A body that would be valid for the endpoint, so auth (not validation) decides the answer. */
function validBody(operationId: string): unknown {
  switch (operationId) {
    case "renameFile":
      return { name: "renamed-by-matrix" };
    case "updateFile":
      return { is_private: true };
    case "createSignedUrl":
      return { expires_in: 60 };
    case "createFolder":
      return { name: "matrix-folder-new" };
    case "renameFolder":
      return { name: "matrix-folder-renamed" };
    case "createSource":
      return { name: "matrix-source-new", type: "s3", configuration: { region: "eu-west-1", bucket: "b" } };
    case "updateSource":
      return { name: "matrix-source-renamed" };
    default:
      return undefined;
  }
}

function notFoundBody(operationId: string): unknown {
  if (operationId === "renameFile") return { error: expect.stringMatching(/\S/), code: "FILE_NOT_FOUND" };
  if (operationId.endsWith("File") || operationId === "createSignedUrl") return { error: "File not found" };
  if (operationId.endsWith("Folder")) return { error: "Folder not found" };
  return { error: "Source not found" };
}

const PRIVATE_ENDPOINTS = ENDPOINTS.filter((ep) => ep.key === "private");

describe("auth matrix", () => {
  let server: ServerProcess;
  let ids: Ids;
  let checks = 0;

  beforeAll(async () => {
    server = await startServerProcess({ TROVE_RATE_LIMIT_MAX: "100000" });
    const { baseUrl, keys } = server;
    const file = await uploadSmallFile(baseUrl, keys.private, "matrix.txt");
    const folder = await api(baseUrl, keys.private, "POST", "/api/v1/folders", { name: "matrix-folder" });
    const source = await api(baseUrl, keys.private, "POST", "/api/v1/sources", {
      name: "matrix-source",
      type: "s3",
      configuration: { region: "eu-west-1", bucket: "b", secret_key: "matrix-secret" },
    });
    expect(folder.status).toBe(200);
    expect(source.status).toBe(201);
    ids = {
      fileNo: String(file.file_no),
      folderNo: (folder.body as { folder_no: string }).folder_no,
      sourceId: (source.body as { data: { id: string } }).data.id,
    };
  });

  afterAll(async () => {
    reportFigures("auth-matrix", { checks });
    await server?.stop();
  });

  describe.each(PRIVATE_ENDPOINTS.map((ep) => [`${ep.number} ${ep.method} ${ep.path}`, ep] as const))(
    "%s",
    (_, ep) => {
      const call = (key: string | undefined, headerForm: "x-api-key" | "bearer" = "x-api-key") => {
        const headers: Record<string, string> = {};
        if (key)
          headers[headerForm === "bearer" ? "authorization" : "x-api-key"] =
            headerForm === "bearer" ? `Bearer ${key}` : key;
        const body = validBody(ep.operationId);
        if (body !== undefined) headers["content-type"] = "application/json";
        return fetch(`${server.baseUrl}${concretePath(ep.path, ids)}`, {
          method: ep.method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      };
      const expected401 =
        ep.group === "sources"
          ? SOURCES_UNAUTHORIZED
          : ep.group === "upload"
            ? UPLOAD_UNAUTHORIZED
            : UNAUTHORIZED;
      const expected403 = {
        error: "Forbidden",
        message: expect.stringMatching(/\S/),
        ...(ep.group === "upload" ? { success: false, errorCode: "FORBIDDEN" } : {}),
      };

      it.each([
        ["no key", undefined],
        ["a bad key", "trove_sk_thisKeyDoesNotExist0000000000000000000"],
        ["an empty key", " "],
        ["a truncated private key", "__TRUNCATED__"],
      ])("401 with %s", async (_label, key) => {
        const resolved = key === "__TRUNCATED__" ? server.keys.private.slice(0, -1) : key;
        for (const form of ["x-api-key", "bearer"] as const) {
          const response = await call(resolved, form);
          checks += 1;
          expect(response.status).toBe(401);
          expect(response.headers.get("content-type")).toMatch(/^application\/json/);
          const body = await response.json();
          expect(body).toEqual(expected401);
          expect(errorShapeFor(ep.group, 401).safeParse(body).success).toBe(true);
        }
      });

      it("403 with the public key", async () => {
        for (const form of ["x-api-key", "bearer"] as const) {
          const response = await call(server.keys.public, form);
          checks += 1;
          expect(response.status).toBe(403);
          const body = await response.json();
          expect(body).toEqual(expected403);
          expect(errorShapeFor(ep.group, 403).safeParse(body).success).toBe(true);
        }
      });

      if (ep.path.includes(":")) {
        it("404 for workspace A's resource with workspace B's private key", async () => {
          const response = await call(server.keys.private2);
          checks += 1;
          expect(response.status).toBe(404);
          const body = await response.json();
          expect(body).toEqual(notFoundBody(ep.operationId));
          const variant = ep.operationId === "renameFile" ? "rename" : undefined;
          expect(errorShapeFor(ep.group, 404, variant).safeParse(body).success).toBe(true);
        });
      } else if (ep.method === "GET") {
        it("lists none of workspace A's resources for workspace B", async () => {
          const response = await api(server.baseUrl, server.keys.private2, "GET", ep.path);
          checks += 1;
          expect(response.status).toBe(200);
          expect(response.text).not.toContain("matrix-");
          expect(response.text).not.toContain(ids.sourceId);
        });
      }
    },
  );

  it("workspace A's resources are untouched after workspace B's attempts", async () => {
    const { baseUrl, keys } = server;
    const file = await api(baseUrl, keys.private, "GET", `/api/v1/files/${ids.fileNo}`);
    const source = await api(baseUrl, keys.private, "GET", `/api/v1/sources/${ids.sourceId}`);
    const folders = await api(baseUrl, keys.private, "GET", "/api/v1/folders");
    checks += 3;
    expect(file.status).toBe(200);
    expect(file.text).toContain("matrix.txt");
    expect(source.status).toBe(200);
    expect((source.body as { data: { name: string } }).data.name).toBe("matrix-source");
    expect(folders.text).toContain('"matrix-folder"');
  });

  describe("upload endpoints accept the public key", () => {
    it("1 direct upload", async () => {
      const form = new FormData();
      form.set("file_name", "public.txt");
      form.set("file", new Blob(["public key upload"], { type: "text/plain" }), "public.txt");
      const response = await fetch(`${server.baseUrl}/api/v1/uploads`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.keys.public}` },
        body: form,
      });
      checks += 1;
      expect(response.status).toBe(200);
    });

    it("2 remote-URL upload (refused by the URL guard, not by auth)", async () => {
      const response = await api(server.baseUrl, server.keys.public, "POST", "/api/v1/uploads/remote", {
        remote_url: `${server.baseUrl}/healthz`,
      });
      checks += 1;
      expect([401, 403]).not.toContain(response.status);
      expect(response.status).toBeLessThan(500);
    });

    it("3 multipart start, 4 part, 5 complete", async () => {
      const content = new Uint8Array(2048).fill(42);
      const start = await api(server.baseUrl, server.keys.public, "POST", "/api/v1/multipart/start", {
        file_name: "public.bin",
        size: content.length,
        format: "application/octet-stream",
      });
      checks += 1;
      expect(start.status).toBe(200);
      const session = start.body as { session_id: string; part_size: number; parts: string[] };
      for (const [i, url] of session.parts.entries()) {
        const chunk = content.subarray(i * session.part_size, (i + 1) * session.part_size);
        const put = await fetch(url, {
          method: "PUT",
          headers: { "content-type": "application/octet-stream" },
          body: chunk,
        });
        expect(put.status).toBe(200);
      }
      // Workspace B cannot complete workspace A's session.
      const foreign = await api(server.baseUrl, server.keys.private2, "POST", "/api/v1/multipart/complete", {
        session_id: session.session_id,
      });
      checks += 1;
      expect(foreign.status).toBe(404);
      expect(errorShapeFor("multipart", 404).safeParse(foreign.body).success).toBe(true);
      const complete = await api(server.baseUrl, server.keys.public, "POST", "/api/v1/multipart/complete", {
        session_id: session.session_id,
      });
      checks += 1;
      expect(complete.status).toBe(200);
    });

    it.each([
      ["/api/v1/uploads", UPLOAD_UNAUTHORIZED],
      ["/api/v1/uploads/remote", UPLOAD_UNAUTHORIZED],
      ["/api/v1/multipart/start", UNAUTHORIZED],
      ["/api/v1/multipart/complete", UNAUTHORIZED],
    ])("%s without a key: 401 with the group's body", async (path, expected) => {
      const response = await api(server.baseUrl, undefined, "POST", path, {});
      checks += 1;
      expect(response.status).toBe(401);
      expect(response.body).toEqual(expected);
    });
  });
});
