import { existsSync, readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { ADMIN_ENDPOINTS } from "../admin-endpoints.js";
import { ENDPOINTS } from "../endpoints.js";
import { errorShapeFor } from "../error-shapes.js";
import { failureSchema, fileNotFoundCodeSchema } from "../errors.js";
import { COMPONENT_SCHEMAS } from "./component-schemas.js";
import { createOpenApiDocument, openApiDocument } from "./index.js";

type Json = Record<string, unknown>;

/** The spec's endpoint table, typed out independently of ENDPOINTS. */
const SPEC_SERVICE_ENDPOINTS = [
  ["post", "/api/v1/uploads"],
  ["post", "/api/v1/uploads/remote"],
  ["post", "/api/v1/multipart/start"],
  ["post", "/api/v1/multipart/complete"],
  ["get", "/api/v1/files"],
  ["get", "/api/v1/files/{fileNo}"],
  ["patch", "/api/v1/files/{fileNo}/rename"],
  ["delete", "/api/v1/files/{fileNo}"],
  ["post", "/api/v1/folders"],
  ["get", "/api/v1/folders"],
  ["post", "/api/v1/folders/rename/{folderNo}"],
  ["delete", "/api/v1/folders/{folderNo}"],
  ["post", "/api/v1/sources"],
  ["get", "/api/v1/sources"],
  ["get", "/api/v1/sources/{sourceId}"],
  ["patch", "/api/v1/sources/{sourceId}"],
  ["delete", "/api/v1/sources/{sourceId}"],
] as const;
const GATEWAY_PATH = "/api/v1/multipart/parts/{sessionId}/{partNumber}";
const HTTP_METHODS = ["get", "put", "post", "patch", "delete", "head", "options", "trace"];

const doc = createOpenApiDocument() as unknown as Json;
const paths = doc.paths as Record<string, Record<string, Json>>;
const componentSchemas = (doc.components as Json).schemas as Record<string, Json>;

/** The public API's operations (the admin API's, under /admin/, have tests of their own below). */
function operationsOf(document: Json, admin = false): [method: string, path: string, operation: Json][] {
  const result: [string, string, Json][] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
    if (path.startsWith("/admin/") !== admin) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (HTTP_METHODS.includes(method)) result.push([method, path, operation]);
    }
  }
  return result;
}

function operationOf(method: string, path: string): Json {
  const operation = paths[path]?.[method];
  if (!operation) throw new Error(`no ${method} ${path}`);
  return operation;
}

/** Every `$ref` anywhere in a JSON value, with where it was found. */
function collectRefs(value: unknown, at = "#", found: [string, string][] = []): [string, string][] {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) collectRefs(item, `${at}/${index}`, found);
  } else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") found.push([at, child]);
      else collectRefs(child, `${at}/${key}`, found);
    }
  }
  return found;
}

function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

function componentNameOf(schema: unknown): string | undefined {
  const ref = (schema as Json | undefined)?.$ref;
  return typeof ref === "string" ? ref.replace("#/components/schemas/", "") : undefined;
}

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("the validator does catch a broken document", async () => {
    const broken = structuredClone(doc);
    delete broken.info;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it("has the version, title and servers the spec gives", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "Trove Media API", version: "1.0.0" });
    expect(doc.servers).toEqual([
      expect.objectContaining({
        url: "{base_url}",
        variables: { base_url: expect.objectContaining({ default: "http://localhost:3000" }) },
      }),
      expect.objectContaining({
        url: "{app_url}",
        variables: { app_url: expect.objectContaining({ default: "http://localhost:3000" }) },
      }),
    ]);
  });

  it("declares both ways of sending the API key", () => {
    expect((doc.components as Json).securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }),
      bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }),
      adminToken: expect.objectContaining({ type: "http", scheme: "bearer" }),
    });
  });

  it("documents every admin endpoint under /admin/v1, behind the admin token only", () => {
    const admin = operationsOf(doc, true);
    expect(admin.map(([, , operation]) => operation.operationId).sort()).toEqual(
      ADMIN_ENDPOINTS.map((endpoint) => endpoint.operationId).sort(),
    );
    for (const [method, path, operation] of admin) {
      expect(path, operation.operationId as string).toMatch(/^\/admin\/v1\//);
      expect(operation.security, `${method} ${path}`).toEqual([{ adminToken: [] }]);
      expect(operation.tags).toEqual(["admin"]);
      expect(Object.keys(operation.responses as Json), `${method} ${path}`).toContain("401");
    }
  });

  it("covers exactly the 17 service endpoints, the part gateway and Trove's own seven", () => {
    const documented = operationsOf(doc).map(([method, path]) => `${method} ${path}`);
    const expected = [
      ...SPEC_SERVICE_ENDPOINTS.map(([method, path]) => `${method} ${path}`),
      `put ${GATEWAY_PATH}`,
      "post /api/v1/uploads/tokens",
      "patch /api/v1/files/{fileNo}",
      "post /api/v1/files/{fileNo}/signed-url",
      "delete /api/v1/multipart/{sessionId}",
      "get /api/v1/usage",
      "post /api/v1/files/move",
      "post /api/v1/sources/{sourceId}/test",
    ];
    expect(documented).toHaveLength(25);
    expect(documented.sort()).toEqual(expected.sort());
  });

  it("has one operation per ENDPOINTS entry, with unique operation ids", () => {
    const ids = operationsOf(doc).map(([, , operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(ENDPOINTS.length);
    expect(ids.sort()).toEqual(ENDPOINTS.map((endpoint) => endpoint.operationId).sort());
  });

  it("every keyed endpoint accepts either scheme; the gateway takes none", () => {
    for (const [method, path, operation] of operationsOf(doc)) {
      if (path === GATEWAY_PATH) expect(operation.security).toEqual([]);
      else expect(operation.security, `${method} ${path}`).toEqual([{ apiKey: [] }, { bearerAuth: [] }]);
    }
  });

  it("documents the part upload under the gateway path, noting presigned URLs in direct mode", () => {
    const operation = operationOf("put", GATEWAY_PATH);
    expect(operation.description).toMatch(/direct S3 mode the URL is a presigned storage URL/);
    expect((operation.requestBody as Json).content).toHaveProperty("application/octet-stream");
    const ok = (operation.responses as Record<string, Json>)["200"]!;
    expect(ok.headers).toHaveProperty("ETag");
    expect(Object.keys(operation.responses as Json).sort()).toEqual(["200", "400", "500", "503"]);
  });

  it("success statuses: 201 for create source, 204 without content for delete source, 200 otherwise", () => {
    for (const [method, path, operation] of operationsOf(doc)) {
      const responses = operation.responses as Record<string, Json>;
      const success = Object.keys(responses).filter((status) => status.startsWith("2"));
      if (method === "post" && path === "/api/v1/sources") expect(success).toEqual(["201"]);
      else if (method === "delete" && path === "/api/v1/sources/{sourceId}") {
        expect(success).toEqual(["204"]);
        expect(responses["204"]).not.toHaveProperty("content");
      } else expect(success, `${method} ${path}`).toEqual(["200"]);
      const body = responses[success[0]!]!;
      if (success[0] !== "204") expect(body.content, `${method} ${path}`).toHaveProperty("application/json");
    }
  });

  it("documents every error status of each endpoint, with 401/429/500 when keyed and 403 when private", () => {
    for (const endpoint of ENDPOINTS) {
      const path = endpoint.path.replace(/:(\w+)/g, "{$1}");
      const responses = operationOf(endpoint.method.toLowerCase(), path).responses as Record<string, Json>;
      const statuses = Object.keys(responses).map(Number);
      for (const status of endpoint.errors) expect(statuses, endpoint.operationId).toContain(status);
      if (endpoint.key !== "none") {
        for (const status of [401, 429, 500]) expect(statuses, endpoint.operationId).toContain(status);
      }
      // Private endpoints refuse public keys; public ones refuse what an upload policy forbids.
      if (endpoint.key === "none") expect(statuses, endpoint.operationId).not.toContain(403);
      else expect(statuses, endpoint.operationId).toContain(403);
    }
  });

  it("each error response carries its group's envelope for that status", () => {
    for (const endpoint of ENDPOINTS) {
      const path = endpoint.path.replace(/:(\w+)/g, "{$1}");
      const responses = operationOf(endpoint.method.toLowerCase(), path).responses as Record<string, Json>;
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        const schema = ((response.content as Json)["application/json"] as Json).schema;
        const name = componentNameOf(schema);
        expect(name, `${endpoint.operationId} ${status}`).toBeDefined();
        let expected = errorShapeFor(endpoint.group, Number(status));
        if (endpoint.operationId === "renameFile" && status === "404") expected = fileNotFoundCodeSchema;
        if (endpoint.operationId === "createFolder" && status === "400") expected = failureSchema;
        expect(
          COMPONENT_SCHEMAS[name as keyof typeof COMPONENT_SCHEMAS],
          `${endpoint.operationId} ${status}`,
        ).toBe(expected);
        if (status === "429") expect(response.headers).toHaveProperty("Retry-After");
      }
    }
  });

  it("every $ref resolves inside the document", () => {
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThan(50);
    for (const [at, ref] of refs) expect(resolvePointer(doc, ref), `${ref} at ${at}`).toBeDefined();
  });

  it("publishes error envelopes and resources under stable component names, each rendered once", () => {
    expect(Object.keys(componentSchemas).sort()).toEqual(Object.keys(COMPONENT_SCHEMAS).sort());
    expect(componentSchemas.RateLimitError).toMatchObject({
      type: "object",
      required: ["error", "message", "retryAfterSeconds"],
    });
    expect(componentSchemas.FileListRow?.properties).toHaveProperty("thumbanil");
  });

  it("declares every path parameter of every templated path", () => {
    for (const [method, path, operation] of operationsOf(doc)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const parameters = (operation.parameters ?? []) as Json[];
      for (const name of names) {
        expect(parameters, `${method} ${path}`).toContainEqual(
          expect.objectContaining({ in: "path", name, required: true }),
        );
      }
    }
  });

  it("lists the query parameters with their limits and defaults", () => {
    const queryOf = (path: string) =>
      Object.fromEntries(
        (operationOf("get", path).parameters as Json[])
          .filter((parameter) => parameter.in === "query")
          .map((parameter) => [parameter.name, parameter.schema as Json]),
      );
    const files = queryOf("/api/v1/files");
    expect(Object.keys(files).sort()).toEqual(
      ["page", "limit", "sort_field", "sort_order", "sort", "folder_no", "name", "path", "tags"].sort(),
    );
    expect(files.page).toMatchObject({ type: "integer", minimum: 1, default: 1 });
    expect(files.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 });
    expect(files.tags).toMatchObject({ type: "string" });
    const sources = queryOf("/api/v1/sources");
    expect(sources.limit).toMatchObject({ minimum: 1, maximum: 100, default: 10 });
    expect(sources.type).toEqual({ $ref: "#/components/schemas/SourceType" });
    expect(componentSchemas.SourceType).toMatchObject({
      enum: ["s3", "azure", "google_cloud", "image_source"],
    });
  });

  it("direct upload takes multipart/form-data with a binary file and the text fields", () => {
    const body = operationOf("post", "/api/v1/uploads").requestBody as Json;
    const content = body.content as Record<string, Json>;
    expect(Object.keys(content)).toEqual(["multipart/form-data"]);
    const schema = content["multipart/form-data"]!.schema as Json;
    const properties = schema.properties as Record<string, Json>;
    expect(properties.file).toMatchObject({ type: "string", format: "binary" });
    for (const field of [
      "folder",
      "tags",
      "transform",
      "metadata",
      "custom_id",
      "random_prefix",
      "webhook_url",
    ]) {
      expect(properties, field).toHaveProperty(field);
    }
    expect(properties.tags).toEqual({ type: "string" });
    expect(schema.required).toEqual(expect.arrayContaining(["file", "file_name"]));
  });

  it("every other body is JSON, and GET/DELETE (and a source test, which only acts) take none", () => {
    for (const [method, path, operation] of operationsOf(doc)) {
      const body = operation.requestBody as Json | undefined;
      if (method === "get" || method === "delete" || path === "/api/v1/sources/{sourceId}/test")
        expect(body, `${method} ${path}`).toBeUndefined();
      else if (path !== "/api/v1/uploads" && path !== GATEWAY_PATH) {
        expect(Object.keys(body?.content as Json), `${method} ${path}`).toEqual(["application/json"]);
      }
    }
  });

  it("shows the per-type configuration of a new source", () => {
    const schema = (
      (operationOf("post", "/api/v1/sources").requestBody as Json).content as Record<string, Json>
    )["application/json"]!.schema as Json;
    const configurations = (schema.oneOf as Json[]).map((option) =>
      componentNameOf((option.properties as Record<string, Json>).configuration),
    );
    expect(configurations).toEqual([
      "S3Configuration",
      "AzureConfiguration",
      "GoogleCloudConfiguration",
      "ImageSourceConfiguration",
    ]);
  });

  it("openApiDocument is the same document, and it serialises to plain JSON", () => {
    expect(openApiDocument).toEqual(doc);
    expect(JSON.parse(JSON.stringify(openApiDocument))).toEqual(doc);
  });

  it("each call builds a fresh document: changing one leaves the next untouched", () => {
    const first = createOpenApiDocument();
    first.servers?.splice(0);
    (first.components?.securitySchemes as Json).apiKey = {};
    expect(createOpenApiDocument()).toEqual(doc);
  });
});

const emitted = new URL("../../dist/openapi.json", import.meta.url);

describe.runIf(existsSync(emitted))("dist/openapi.json (after a build)", () => {
  it("is a valid OpenAPI 3.1 document with every public and admin operation", async () => {
    const file = JSON.parse(readFileSync(emitted, "utf8")) as Json;
    expect((await new Validator().validate(file)).valid).toBe(true);
    expect(operationsOf(file)).toHaveLength(ENDPOINTS.length);
    expect(operationsOf(file, true)).toHaveLength(ADMIN_ENDPOINTS.length);
  });
});
