import { describe, expect, it } from "vitest";
import { createSourceBodySchema } from "../sources.js";
import { toOpenApiPath } from "./paths.js";
import { createSourceRequestSchema, directUploadFormSchema } from "./request.js";

describe("toOpenApiPath", () => {
  it("turns :param segments into {param}", () => {
    expect(toOpenApiPath("/api/v1/files/:fileNo/rename")).toBe("/api/v1/files/{fileNo}/rename");
    expect(toOpenApiPath("/api/v1/multipart/parts/:sessionId/:partNumber")).toBe(
      "/api/v1/multipart/parts/{sessionId}/{partNumber}",
    );
    expect(toOpenApiPath("/api/v1/files")).toBe("/api/v1/files");
  });
});

describe("createSourceRequestSchema (documentation of endpoint 14's body)", () => {
  const bodies: unknown[] = [
    { name: "a", type: "s3", configuration: { region: "eu-west-1", bucket: "b" } },
    { name: "a", type: "s3", configuration: { region: "eu-west-1" } },
    { name: "a", type: "s3", configuration: { region: "eu-west-1", bucket: "b", extra: 1 } },
    { name: "a", type: "azure", configuration: { connection_string: "x", container_name: "c" } },
    { name: "a", type: "azure", configuration: { region: "eu-west-1", bucket: "b" } },
    { name: "a", type: "google_cloud", configuration: { service_account_json: "{}", bucket_name: "b" } },
    { name: "a", type: "image_source", configuration: { base_url: "https://img.example.com" } },
    { name: "a", type: "image_source", configuration: { base_url: "https://img.example.com/" } },
    { name: "bad name", type: "s3", configuration: { region: "r", bucket: "b" } },
    { name: "a", type: "ftp", configuration: {} },
    { name: "a", type: "s3" },
  ];

  it("accepts exactly what the validating schema accepts", () => {
    for (const body of bodies) {
      expect(createSourceRequestSchema.safeParse(body).success, JSON.stringify(body)).toBe(
        createSourceBodySchema.safeParse(body).success,
      );
    }
  });
});

describe("directUploadFormSchema", () => {
  it("is the text fields plus a required file", () => {
    const file = new File([new Uint8Array([1, 2, 3])], "a.png", { type: "image/png" });
    expect(directUploadFormSchema.safeParse({ file_name: "a.png", file }).success).toBe(true);
    expect(directUploadFormSchema.safeParse({ file_name: "a.png" }).success).toBe(false);
  });
});
