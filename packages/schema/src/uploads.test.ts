import { describe, expect, it } from "vitest";
import {
  anyUploadResponseSchema,
  booleanStringSchema,
  directUploadFieldsSchema,
  fileNameSchema,
  folderPathSchema,
  metadataJsonSchema,
  remoteUploadBodySchema,
  uploadEnvelopeResponseSchema,
  uploadResponseSchema,
} from "./uploads.js";

/** The flat upload response, as the spec's Resources section lists it. */
const flatUploadResponse = {
  id: "9b2f4c1e-7d3a-4e8b-a1c2-3d4e5f6a7b8c",
  file_no: "1024",
  workspace_id: "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  name: "sunset.jpg",
  path: "holidays/2024/sunset.jpg",
  url: "http://localhost:3001/ws7Kp2/holidays/2024/sunset.jpg",
  width: 1920,
  height: 1080,
  size: 482133,
  mime_type: "image/jpeg",
  tags: ["nature", "travel"],
  metadata: { camera: "X100V", iso: 200 },
  custom_id: "order-5521",
  folder_no: "fld8Xk2",
  is_duplicate: false,
  created_at: "2024-05-01T10:00:00.000Z",
  upload_source: "api",
  thumbnail: "http://localhost:3001/ws7Kp2/w_200,h_200,c_fill/holidays/2024/sunset.jpg",
  extension: "jpg",
  format: "jpg",
  hash: "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9",
  is_private: false,
};

/** The `{ success: true, data }` shape from the spec's prose description of direct upload. */
const envelopeUploadResponse = {
  success: true,
  data: {
    file_no: "1024",
    name: "sunset.jpg",
    url: "http://localhost:3001/ws7Kp2/holidays/2024/sunset.jpg",
    path: "holidays/2024/sunset.jpg",
    format: "jpg",
    file_size: 482133,
  },
};

describe("upload responses", () => {
  it("accepts the flat upload response", () => {
    expect(uploadResponseSchema.parse(flatUploadResponse)).toEqual(flatUploadResponse);
  });

  it("accepts null dimensions and thumbnail for a non-image", () => {
    const pdf = {
      ...flatUploadResponse,
      width: null,
      height: null,
      thumbnail: null,
      mime_type: "application/pdf",
    };
    expect(uploadResponseSchema.safeParse(pdf).success).toBe(true);
  });

  it("accepts the { success: true, data } shape", () => {
    expect(uploadEnvelopeResponseSchema.parse(envelopeUploadResponse)).toEqual(envelopeUploadResponse);
  });

  it("anyUploadResponseSchema accepts both shapes", () => {
    expect(anyUploadResponseSchema.safeParse(flatUploadResponse).success).toBe(true);
    expect(anyUploadResponseSchema.safeParse(envelopeUploadResponse).success).toBe(true);
  });

  it("rejects near-misses", () => {
    const { hash: _hash, ...withoutHash } = flatUploadResponse;
    expect(uploadResponseSchema.safeParse(withoutHash).success).toBe(false);
    expect(uploadResponseSchema.safeParse({ ...flatUploadResponse, size: "482133" }).success).toBe(false);
    expect(uploadResponseSchema.safeParse({ ...flatUploadResponse, size: -1 }).success).toBe(false);
    expect(uploadResponseSchema.safeParse({ ...flatUploadResponse, file_no: "abc" }).success).toBe(false);
    expect(uploadResponseSchema.safeParse({ ...flatUploadResponse, tags: "nature" }).success).toBe(false);
    expect(
      uploadEnvelopeResponseSchema.safeParse({ ...envelopeUploadResponse, success: false }).success,
    ).toBe(false);
    expect(
      anyUploadResponseSchema.safeParse({ success: true, data: { file_no: "1024", name: "a.jpg" } }).success,
    ).toBe(false);
  });
});

describe("direct upload form fields (endpoint 1)", () => {
  it("accepts the documented form fields as strings", () => {
    const fields = directUploadFieldsSchema.parse({
      file_name: "sunset.jpg",
      folder: "/holidays/2024/",
      tags: "nature, travel",
      transform: "w_300,h_300,c_fill,f_webp",
      metadata: '{"camera":"X100V"}',
      custom_id: "order-5521",
      random_prefix: "true",
      webhook_url: "https://hooks.example.com/trove",
    });
    expect(fields).toMatchObject({
      file_name: "sunset.jpg",
      folder: "holidays/2024",
      tags: ["nature", "travel"],
      metadata: { camera: "X100V" },
      random_prefix: true,
    });
  });

  it("needs file_name only", () => {
    expect(directUploadFieldsSchema.safeParse({ file_name: "a.png" }).success).toBe(true);
    expect(directUploadFieldsSchema.safeParse({}).success).toBe(false);
  });

  it("turns the comma-separated tags string into an array", () => {
    expect(directUploadFieldsSchema.parse({ file_name: "a.png", tags: "a,b , c" }).tags).toEqual([
      "a",
      "b",
      "c",
    ]);
  });

  it("rejects a tags array (the form sends a string) and too many tags", () => {
    expect(directUploadFieldsSchema.safeParse({ file_name: "a.png", tags: ["a"] }).success).toBe(false);
    const many = Array.from({ length: 101 }, (_, i) => `t${i}`).join(",");
    expect(directUploadFieldsSchema.safeParse({ file_name: "a.png", tags: many }).success).toBe(false);
  });

  it("rejects metadata that is not valid JSON, with an issue at metadata", () => {
    const result = directUploadFieldsSchema.safeParse({ file_name: "a.png", metadata: "{camera:" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["metadata"]);
  });

  it("rejects random_prefix other than true/false, and a non-http webhook_url", () => {
    expect(directUploadFieldsSchema.safeParse({ file_name: "a.png", random_prefix: "yes" }).success).toBe(
      false,
    );
    expect(
      directUploadFieldsSchema.safeParse({ file_name: "a.png", webhook_url: "ftp://x.example" }).success,
    ).toBe(false);
  });

  it("rejects an invalid transformation string", () => {
    expect(directUploadFieldsSchema.safeParse({ file_name: "a.png", transform: "q_200" }).success).toBe(
      false,
    );
  });
});

describe("remote-URL upload body (endpoint 2)", () => {
  it("accepts the documented fields, tags as an array or a comma string", () => {
    const withArray = remoteUploadBodySchema.parse({
      remote_url: "https://images.example.com/cat.png",
      file_name: "cat.png",
      folder: "pets",
      tags: ["cat", "pet"],
      metadata: '{"source":"crawler"}',
      random_prefix: "false",
    });
    expect(withArray).toMatchObject({
      tags: ["cat", "pet"],
      metadata: { source: "crawler" },
      random_prefix: false,
    });
    const withString = remoteUploadBodySchema.parse({
      remote_url: "http://example.com/a.png",
      tags: "cat,pet",
    });
    expect(withString.tags).toEqual(["cat", "pet"]);
  });

  it("requires an http(s) remote_url", () => {
    expect(remoteUploadBodySchema.safeParse({}).success).toBe(false);
    expect(remoteUploadBodySchema.safeParse({ remote_url: "file:///etc/passwd" }).success).toBe(false);
    expect(remoteUploadBodySchema.safeParse({ remote_url: "not a url" }).success).toBe(false);
  });

  it("rejects a tags value that is neither array nor string", () => {
    expect(remoteUploadBodySchema.safeParse({ remote_url: "https://a.example/x.png", tags: 5 }).success).toBe(
      false,
    );
  });
});

describe("field schemas", () => {
  it("metadataJsonSchema parses a JSON object string, passes an object through, and rejects the rest", () => {
    expect(metadataJsonSchema.parse('{"a":1}')).toEqual({ a: 1 });
    expect(metadataJsonSchema.parse({ a: 1 })).toEqual({ a: 1 });
    for (const value of ["not json", "[1,2]", "null", "42", 42]) {
      expect(metadataJsonSchema.safeParse(value).success, String(value)).toBe(false);
    }
  });

  it("booleanStringSchema reads 'true'/'false' and booleans", () => {
    expect(booleanStringSchema.parse("true")).toBe(true);
    expect(booleanStringSchema.parse("false")).toBe(false);
    expect(booleanStringSchema.parse(true)).toBe(true);
    expect(booleanStringSchema.safeParse("TRUE").success).toBe(false);
  });

  it("fileNameSchema refuses paths, dot names and blanks", () => {
    expect(fileNameSchema.safeParse("photo 1.jpg").success).toBe(true);
    for (const name of ["", "a/b.jpg", "a\\b.jpg", "..", " ", "x".repeat(256)]) {
      expect(fileNameSchema.safeParse(name).success, name).toBe(false);
    }
  });

  it("folderPathSchema trims outer slashes and refuses empty or dot segments", () => {
    expect(folderPathSchema.parse("/a/b/")).toBe("a/b");
    expect(folderPathSchema.parse("")).toBe("");
    expect(folderPathSchema.parse("///a/b///")).toBe("a/b");
    expect(folderPathSchema.parse("////")).toBe("");
    for (const path of ["a//b", "a/../b", "a/./b", "a\\b"]) {
      expect(folderPathSchema.safeParse(path).success, path).toBe(false);
    }
  });
});
