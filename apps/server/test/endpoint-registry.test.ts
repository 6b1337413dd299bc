// The endpoint registry drives the routes: every ENDPOINTS entry is served at its method and path
// with its key requirement, requests are checked against its schemas before the handler, and a
// response that breaks its schema never reaches the wire. Also the two success bodies of upload.
import { ENDPOINTS, uploadResponseSchema, wrappedUploadResponseSchema } from "@trove/schema";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorsPlugin } from "../src/plugins/errors.js";
import { registerEndpoint } from "../src/routes/endpoint-route.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { forbidSystemDns, startTestServer, type TestServer } from "./support/network-doubles.js";
import { solid } from "./support/test-images.js";
import { directUpload, remoteUpload } from "./uploads-helpers.js";

/** A path with every `:param` filled by a value that cannot name anything. */
function concretePath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, (_match, name: string) => (name === "partNumber" ? "1" : "0"));
}

describe("routes from the registry", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("serves every endpoint at its method and path, behind its key requirement", async () => {
    for (const endpoint of ENDPOINTS) {
      expect(t.app.hasRoute({ method: endpoint.method, url: endpoint.path }), endpoint.operationId).toBe(
        true,
      );
      const res = await t.app.inject({ method: endpoint.method, url: concretePath(endpoint.path) });
      // No key: 401 wherever one is needed; the signed part URL answers for its own signature.
      if (endpoint.key === "none") expect(res.statusCode, endpoint.operationId).not.toBe(401);
      else expect(res.statusCode, endpoint.operationId).toBe(401);
    }
  });

  it("a public key is refused on private-key endpoints and admitted on the others", async () => {
    for (const endpoint of ENDPOINTS.filter((e) => e.key !== "none")) {
      const res = await t.app.inject({
        method: endpoint.method,
        url: concretePath(endpoint.path),
        headers: { "x-api-key": t.keys.public },
      });
      if (endpoint.key === "private") expect(res.statusCode, endpoint.operationId).toBe(403);
      else expect([400, 404, 415], endpoint.operationId).toContain(res.statusCode);
    }
  });

  it("checks the request against the entry's schemas before the handler runs", async () => {
    const headers = { "x-api-key": t.keys.private };
    // A malformed path parameter names nothing: the group's 404.
    const badParam = await t.app.inject({ method: "GET", url: "/api/v1/sources/not-a-uuid", headers });
    expect(badParam.statusCode).toBe(404);
    expect(badParam.json()).toEqual({ error: "Source not found" });
    // A bad query: 400 naming the field.
    const badQuery = await t.app.inject({ method: "GET", url: "/api/v1/files?limit=0", headers });
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json()).toMatchObject({
      error: "Validation failed",
      message: expect.stringMatching(/^limit: /),
    });
    // No body where one is required; a body that is not an object.
    const noBody = await t.app.inject({ method: "POST", url: "/api/v1/folders", headers });
    expect(noBody.json()).toEqual({ success: false, error: "Request body must be a JSON object" });
    const arrayBody = await t.app.inject({ method: "POST", url: "/api/v1/folders", headers, payload: [1] });
    expect(arrayBody.statusCode).toBe(400);
    // An optional body may be left out.
    const token = await t.app.inject({ method: "POST", url: "/api/v1/uploads/tokens", headers });
    expect(token.statusCode).toBe(200);
  });
});

describe("a response that breaks its schema", () => {
  it("is a 500 in the group's envelope, never the broken body", async () => {
    const app = Fastify();
    await app.register(errorsPlugin);
    const secret = "row-internal-secret";
    await app.register(async (scope) => {
      // No auth plugin here: the handler stands alone, returning a folder list with a bad row.
      registerEndpoint(scope, "listFolders", async () => ({ folders: [{ secret }] }) as never);
    });
    const res = await app.inject({ method: "GET", url: "/api/v1/folders" });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain(secret);
    expect(res.json()).toMatchObject({ error: "Internal Server Error" });
    await app.close();
  });

  it("drops fields the schema does not declare", async () => {
    const app = Fastify();
    await app.register(errorsPlugin);
    await app.register(async (scope) => {
      registerEndpoint(scope, "listFolders", async () => ({ folders: [], debug: "internal" }) as never);
    });
    const res = await app.inject({ method: "GET", url: "/api/v1/folders" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ folders: [] });
    await app.close();
  });
});

describe("the upload success body", () => {
  let png: Buffer;
  let restoreDns: () => void = () => {};
  let origin: TestServer;
  beforeAll(async () => {
    png = await solid(30, 20, { r: 1, g: 2, b: 3 }, "png");
    restoreDns = forbidSystemDns();
    origin = await startTestServer((_req, res) =>
      res.writeHead(200, { "content-type": "image/png" }).end(png),
    );
  });
  afterAll(async () => {
    await origin?.close();
    restoreDns();
  });

  it("is wrapped by default, every flat field inside data with file_size and workspace_no", async () => {
    const t = await createTestApp({ config: { trustedRanges: "127.0.0.0/8" } });
    try {
      for (const res of [
        await directUpload(t, { file_name: "a.png" }, { content: png, type: "image/png" }),
        await remoteUpload(t, { remote_url: `${origin.origin}/b.png` }),
      ]) {
        expect(res.statusCode, res.body).toBe(200);
        const body = wrappedUploadResponseSchema.parse(res.json());
        const flat = uploadResponseSchema.parse(body.data);
        expect(Object.keys(body.data).sort()).toEqual(
          [...Object.keys(flat), "file_size", "workspace_no"].sort(),
        );
        expect(body.data.file_size).toBe(png.length);
        expect(body.data.workspace_no).toBe(t.workspace.workspaceNo);
        expect(body.data).toMatchObject({ width: 30, height: 20, format: "png" });
      }
    } finally {
      await t.close();
    }
  });

  it("is the flat record with TROVE_UPLOAD_RESPONSE=flat", async () => {
    const t = await createTestApp({ config: { trustedRanges: "127.0.0.0/8", uploadResponse: "flat" } });
    try {
      for (const res of [
        await directUpload(t, { file_name: "a.png" }, { content: png, type: "image/png" }),
        await remoteUpload(t, { remote_url: `${origin.origin}/b.png` }),
      ]) {
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json() as Record<string, unknown>;
        expect(body).not.toHaveProperty("success");
        expect(uploadResponseSchema.strict().parse(body)).toMatchObject({ size: png.length, width: 30 });
      }
    } finally {
      await t.close();
    }
  });
});
