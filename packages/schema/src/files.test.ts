import { describe, expect, it } from "vitest";
import {
  fileDetailsResponseSchema,
  fileListRowSchema,
  fileNoParamsSchema,
  fileRecordSchema,
  listFilesQuerySchema,
  listFilesResponseSchema,
  renameFileBodySchema,
} from "./files.js";

const listRow = {
  file_no: "1024",
  name: "sunset.jpg",
  thumbanil: "http://localhost:3001/ws7Kp2/w_200,h_200,c_fill/holidays/sunset.jpg",
  url: "http://localhost:3001/ws7Kp2/holidays/sunset.jpg",
  file_size: 482133,
  format: "jpg",
  width: 1920,
  height: 1080,
  created_at: "2024-05-01T10:00:00.000Z",
  workspace_no: "ws7Kp2",
  path: "holidays/sunset.jpg",
  extension: "jpg",
};

const listResponse = {
  files: [
    listRow,
    { ...listRow, file_no: "1025", name: "notes.pdf", thumbanil: null, width: null, height: null },
  ],
  meta: { page: 1, limit: 20, total: 2, hasNext: false, hasPrev: false },
};

const fileDetails = {
  success: true,
  data: {
    id: "9b2f4c1e-7d3a-4e8b-a1c2-3d4e5f6a7b8c",
    file_no: "1024",
    name: "sunset.jpg",
    url: "http://localhost:3001/ws7Kp2/holidays/sunset.jpg",
    path: "holidays/sunset.jpg",
    format: "jpg",
    dimensions: { width: 1920, height: 1080 },
    size: 482133,
    workspace: { name: "Acme", workspace_no: "ws7Kp2" },
    folder: {
      id: "0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5",
      folder_no: "fld8Xk2",
      name: "holidays",
      path: "holidays",
    },
    uploaded_by: "c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f",
    uploaded_at: "2024-05-01T10:00:00.000Z",
    asset_key: "1024",
    asset_url: "http://localhost:3001/ws7Kp2/holidays/sunset.jpg",
    extension: "jpg",
  },
};

/** The rename response: the full file record. */
const fileRecord = {
  id: "9b2f4c1e-7d3a-4e8b-a1c2-3d4e5f6a7b8c",
  file_no: "1024",
  name: "beach.jpg",
  folder_id: null,
  path: null,
  url: "http://localhost:3001/ws7Kp2/beach.jpg",
  original_url: null,
  workspace_id: "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  workspace_no: "ws7Kp2",
  height: 1080,
  width: 1920,
  format: "jpg",
  file_size: 482133,
  is_delete: false,
  is_active: true,
  created_by: "c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f",
  meta_data: { size: 482133, width: 1920, format: "image/jpeg", height: 1080, orientation: null },
  created_at: "2024-05-01T10:00:00.000Z",
  updated_at: "2024-05-02T08:30:00.000Z",
  transform_string: null,
  source: "api",
  is_default: false,
  orientation: "landscape",
  extension: "jpg",
};

describe("list files query (endpoint 6)", () => {
  it("defaults page to 1 and limit to 20", () => {
    expect(listFilesQuerySchema.parse({})).toEqual({ page: 1, limit: 20 });
  });

  it("accepts page ≥ 1 and limit 1..100 from query strings", () => {
    expect(listFilesQuerySchema.parse({ page: "2", limit: "100" })).toMatchObject({ page: 2, limit: 100 });
    expect(listFilesQuerySchema.parse({ limit: "1" })).toMatchObject({ limit: 1 });
  });

  it("rejects page 0, limit 0, limit 101 and non-numbers", () => {
    for (const query of [{ page: "0" }, { limit: "0" }, { limit: "101" }, { page: "two" }]) {
      expect(listFilesQuerySchema.safeParse(query).success, JSON.stringify(query)).toBe(false);
    }
  });

  it("accepts the separate sort form", () => {
    expect(listFilesQuerySchema.parse({ sort_field: "file_size", sort_order: "desc" })).toMatchObject({
      sort_field: "file_size",
      sort_order: "desc",
    });
    for (const field of ["file_size", "name", "created_at", "updated_at"]) {
      expect(listFilesQuerySchema.safeParse({ sort_field: field }).success, field).toBe(true);
    }
  });

  it("accepts the combined sort form", () => {
    for (const sort of [
      "name_asc",
      "name_desc",
      "size_asc",
      "size_desc",
      "created_at_asc",
      "created_at_desc",
    ]) {
      expect(listFilesQuerySchema.parse({ sort }).sort).toBe(sort);
    }
  });

  it("rejects unknown sort values", () => {
    expect(listFilesQuerySchema.safeParse({ sort_field: "size" }).success).toBe(false);
    expect(listFilesQuerySchema.safeParse({ sort_order: "up" }).success).toBe(false);
    expect(listFilesQuerySchema.safeParse({ sort: "updated_at_asc" }).success).toBe(false);
  });

  it("splits the tags filter and keeps the text filters", () => {
    expect(
      listFilesQuerySchema.parse({
        tags: "nature,travel",
        name: "sun",
        path: "holidays",
        folder_no: "fld8Xk2",
      }),
    ).toMatchObject({ tags: ["nature", "travel"], name: "sun", path: "holidays", folder_no: "fld8Xk2" });
  });
});

describe("list files response", () => {
  it("accepts rows with the misspelled thumbanil key", () => {
    expect(listFilesResponseSchema.parse(listResponse)).toEqual(listResponse);
  });

  it("requires thumbanil as spelled on the wire", () => {
    const { thumbanil, ...rest } = listRow;
    expect(fileListRowSchema.safeParse({ ...rest, thumbnail: thumbanil }).success).toBe(false);
  });

  it("rejects a wrong type and a missing meta field", () => {
    expect(fileListRowSchema.safeParse({ ...listRow, file_size: "482133" }).success).toBe(false);
    const { hasPrev: _hasPrev, ...meta } = listResponse.meta;
    expect(listFilesResponseSchema.safeParse({ ...listResponse, meta }).success).toBe(false);
  });
});

describe("file details (endpoint 7)", () => {
  it("accepts the documented details, in a folder or at the root", () => {
    expect(fileDetailsResponseSchema.parse(fileDetails)).toEqual(fileDetails);
    const atRoot = { ...fileDetails, data: { ...fileDetails.data, folder: null, path: null } };
    expect(fileDetailsResponseSchema.safeParse(atRoot).success).toBe(true);
  });

  it("rejects near-misses", () => {
    const { asset_key: _assetKey, ...withoutKey } = fileDetails.data;
    expect(fileDetailsResponseSchema.safeParse({ ...fileDetails, data: withoutKey }).success).toBe(false);
    const badId = { ...fileDetails, data: { ...fileDetails.data, id: "1024" } };
    expect(fileDetailsResponseSchema.safeParse(badId).success).toBe(false);
    const badDimensions = {
      ...fileDetails,
      data: { ...fileDetails.data, dimensions: { width: "1920", height: 1 } },
    };
    expect(fileDetailsResponseSchema.safeParse(badDimensions).success).toBe(false);
  });

  it("fileNo path parameter is numeric", () => {
    expect(fileNoParamsSchema.safeParse({ fileNo: "1024" }).success).toBe(true);
    expect(fileNoParamsSchema.safeParse({ fileNo: "abc" }).success).toBe(false);
  });
});

describe("rename file (endpoint 8)", () => {
  it("accepts the full file record", () => {
    expect(fileRecordSchema.parse(fileRecord)).toEqual(fileRecord);
  });

  it("rejects near-misses in the record", () => {
    const { meta_data: _metaData, ...withoutMeta } = fileRecord;
    expect(fileRecordSchema.safeParse(withoutMeta).success).toBe(false);
    expect(fileRecordSchema.safeParse({ ...fileRecord, is_delete: "false" }).success).toBe(false);
    expect(fileRecordSchema.safeParse({ ...fileRecord, workspace_id: "ws7Kp2" }).success).toBe(false);
  });

  it("body: a base name without separators", () => {
    expect(renameFileBodySchema.safeParse({ name: "beach" }).success).toBe(true);
    for (const name of ["", "a/b", "a\\b", "..", "   "]) {
      expect(renameFileBodySchema.safeParse({ name }).success, name).toBe(false);
    }
    expect(renameFileBodySchema.safeParse({}).success).toBe(false);
  });
});
