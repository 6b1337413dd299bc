/**
 * The video fields of a file (issue #33) are documented wherever the record is sent: the upload
 * response, the details and the record carry `duration`, `video_codec` and `audio_codec` as
 * optional, nullable properties; the list row does not (the spec fixes its keys).
 */
import { describe, expect, it } from "vitest";
import { createOpenApiDocument } from "./index.js";

type Json = Record<string, unknown>;

const schemas = ((createOpenApiDocument() as unknown as Json).components as Json).schemas as Record<
  string,
  Json
>;
const VIDEO_FIELDS = { duration: "number", video_codec: "string", audio_codec: "string" } as const;

describe("the OpenAPI document's video fields", () => {
  it.each(["UploadResponse", "FileDetails", "FileRecord"])("%s has them, optional and nullable", (name) => {
    const schema = schemas[name] as { properties: Record<string, Json>; required?: string[] };
    for (const [field, type] of Object.entries(VIDEO_FIELDS)) {
      const property = schema.properties[field];
      expect(property, `${name}.${field}`).toBeDefined();
      expect(JSON.stringify(property)).toContain(`"${type}"`);
      expect(JSON.stringify(property)).toContain('"null"');
      expect(schema.required ?? []).not.toContain(field);
    }
  });

  it("the list row keeps the spec's keys", () => {
    const row = schemas.FileListRow as { properties: Record<string, Json> };
    for (const field of Object.keys(VIDEO_FIELDS)) expect(row.properties[field]).toBeUndefined();
  });
});
