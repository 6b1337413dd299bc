import { describe, expect, it } from "vitest";
import {
  createFolderBodySchema,
  createFolderResponseSchema,
  folderNoParamsSchema,
  folderRecordSchema,
  listFoldersQuerySchema,
  listFoldersResponseSchema,
  renameFolderBodySchema,
} from "./folders.js";

const folderRecord = {
  id: "0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5",
  folder_no: "fld8Xk2",
  name: "summer",
  parent_folder: "7e8f9a0b-1c2d-4e3f-a4b5-c6d7e8f9a0b1",
  workspace_id: "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  workspace_no: "ws7Kp2",
  is_delete: false,
  is_active: true,
  created_by: "c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f",
  created_at: "2024-05-01T10:00:00.000Z",
  updated_at: "2024-05-03T09:00:00.000Z",
  source: "api",
  path: "holidays/summer",
  workspace: { workspace_no: "ws7Kp2" },
};

describe("create folder (endpoint 10)", () => {
  it("accepts a name with or without a parent", () => {
    expect(createFolderBodySchema.safeParse({ name: "holidays" }).success).toBe(true);
    expect(createFolderBodySchema.safeParse({ name: "summer", parent_folder_no: "fld8Xk2" }).success).toBe(
      true,
    );
  });

  it("rejects a missing or slashed name and a malformed parent", () => {
    expect(createFolderBodySchema.safeParse({}).success).toBe(false);
    expect(createFolderBodySchema.safeParse({ name: "a/b" }).success).toBe(false);
    expect(createFolderBodySchema.safeParse({ name: "" }).success).toBe(false);
    expect(createFolderBodySchema.safeParse({ name: "a", parent_folder_no: "../x" }).success).toBe(false);
  });

  it("response is { name, folder_no }", () => {
    expect(createFolderResponseSchema.safeParse({ name: "holidays", folder_no: "fld8Xk2" }).success).toBe(
      true,
    );
    expect(createFolderResponseSchema.safeParse({ name: "holidays" }).success).toBe(false);
  });
});

describe("list folders (endpoint 11)", () => {
  it("accepts the documented query", () => {
    expect(
      listFoldersQuerySchema.safeParse({ parent_folder_no: "fld8Xk2", name: "sum", sort: "created_at_desc" })
        .success,
    ).toBe(true);
    expect(listFoldersQuerySchema.parse({})).toEqual({});
  });

  it("rejects a sort the folders list does not have", () => {
    expect(listFoldersQuerySchema.safeParse({ sort: "size_asc" }).success).toBe(false);
  });

  it("accepts rows with totals and rejects a negative or fractional total", () => {
    const row = {
      folder_no: "fld8Xk2",
      name: "holidays",
      created_at: "2024-05-01T10:00:00.000Z",
      total_items: 12,
      total_size: 5_242_880,
    };
    expect(listFoldersResponseSchema.parse({ folders: [row] })).toEqual({ folders: [row] });
    expect(listFoldersResponseSchema.safeParse({ folders: [{ ...row, total_items: -1 }] }).success).toBe(
      false,
    );
    expect(listFoldersResponseSchema.safeParse({ folders: [{ ...row, total_size: 1.5 }] }).success).toBe(
      false,
    );
  });
});

describe("rename folder (endpoint 12)", () => {
  it("accepts the full folder record", () => {
    expect(folderRecordSchema.parse(folderRecord)).toEqual(folderRecord);
    expect(folderRecordSchema.safeParse({ ...folderRecord, parent_folder: null }).success).toBe(true);
  });

  it("rejects near-misses in the record", () => {
    const { workspace: _workspace, ...withoutWorkspace } = folderRecord;
    expect(folderRecordSchema.safeParse(withoutWorkspace).success).toBe(false);
    expect(folderRecordSchema.safeParse({ ...folderRecord, is_active: 1 }).success).toBe(false);
  });

  it("body: a name without slashes; folderNo is alphanumeric", () => {
    expect(renameFolderBodySchema.safeParse({ name: "autumn" }).success).toBe(true);
    expect(renameFolderBodySchema.safeParse({ name: "a/b" }).success).toBe(false);
    expect(folderNoParamsSchema.safeParse({ folderNo: "fld8Xk2" }).success).toBe(true);
    expect(folderNoParamsSchema.safeParse({ folderNo: "fld/8" }).success).toBe(false);
  });
});
