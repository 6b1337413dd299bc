import type {
  FileDetails,
  FileListRow,
  FileRecord,
  FolderRecord,
  MultipartCompleteResponse,
  MultipartSession,
  Source,
  UploadEnvelopeResponse,
  UploadResponse,
} from "@trove/schema";
import { STORAGE_URL } from "./msw-server.js";

const UUID = "7d9f1c2e-4b5a-4c3d-8e9f-0a1b2c3d4e5f";
const WORKSPACE_ID = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9";
const CREATED = "2026-01-02T03:04:05.000Z";

export const flatUploadResponse: UploadResponse = {
  id: UUID,
  file_no: "1001",
  workspace_id: WORKSPACE_ID,
  name: "cat.jpg",
  path: "photos/cat.jpg",
  url: "https://assets.trove.test/ws1/photos/cat.jpg",
  width: 4,
  height: 3,
  size: 11,
  mime_type: "image/jpeg",
  tags: ["pets"],
  metadata: { source: "test" },
  custom_id: null,
  folder_no: "F1",
  is_duplicate: false,
  created_at: CREATED,
  upload_source: "api",
  thumbnail: null,
  extension: "jpg",
  format: "jpg",
  hash: "abc123",
  is_private: false,
};

export const envelopeUploadResponse: UploadEnvelopeResponse = {
  success: true,
  data: {
    file_no: "1002",
    name: "cat.jpg",
    url: "https://assets.trove.test/ws1/cat.jpg",
    path: "cat.jpg",
    format: "jpg",
    file_size: 11,
  },
};

/**
 * Trove's default upload answer: `{ success, data }` with every field of the flat record in
 * `data`, plus `file_size` and `workspace_no`.
 */
export const wrappedUploadResponse = {
  success: true,
  data: { ...flatUploadResponse, file_no: "1003", file_size: flatUploadResponse.size, workspace_no: "ws1" },
} as const;

/** The hosted service's documented answer: `data` with only these nine fields. */
export const hostedUploadResponse = {
  success: true,
  data: {
    file_no: "1004",
    name: "cat.jpg",
    url: "https://assets.trove.test/ws1/cat.jpg",
    path: "cat.jpg",
    width: 4,
    height: 3,
    format: "jpg",
    file_size: 11,
    workspace_no: "ws1",
  },
} as const;

export function multipartSession(
  count: number,
  partSize: number,
  overrides: Partial<MultipartSession> = {},
): MultipartSession {
  return {
    session_id: "sess_1",
    part_size: partSize,
    parts: Array.from({ length: count }, (_, index) => `${STORAGE_URL}/parts/sess_1/${index + 1}?sig=abc`),
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    ...overrides,
  };
}

export function multipartComplete(size: number): MultipartCompleteResponse {
  return {
    success: true,
    data: {
      id: UUID,
      file_no: "2001",
      name: "big.bin",
      url: "https://assets.trove.test/ws1/big.bin",
      path: "big.bin",
      width: null,
      height: null,
      format: "bin",
      file_size: size,
      workspace_no: "ws1",
    },
  };
}

export const fileListRow: FileListRow = {
  file_no: "1001",
  name: "cat.jpg",
  thumbanil: "https://assets.trove.test/ws1/thumbs/cat.jpg",
  url: "https://assets.trove.test/ws1/photos/cat.jpg",
  file_size: 11,
  format: "jpg",
  width: 4,
  height: 3,
  created_at: CREATED,
  workspace_no: "ws1",
  path: "photos/cat.jpg",
  extension: "jpg",
};

export const fileDetails: FileDetails = {
  id: UUID,
  file_no: "1001",
  name: "cat.jpg",
  url: "https://assets.trove.test/ws1/photos/cat.jpg",
  path: "photos/cat.jpg",
  format: "jpg",
  dimensions: { width: 4, height: 3 },
  size: 11,
  workspace: { name: "Test", workspace_no: "ws1" },
  folder: null,
  uploaded_by: "tester",
  uploaded_at: CREATED,
  asset_key: "1001",
  asset_url: "https://assets.trove.test/ws1/photos/cat.jpg",
  extension: "jpg",
};

export const fileRecord: FileRecord = {
  id: UUID,
  file_no: "1001",
  name: "dog.jpg",
  folder_id: null,
  path: "photos/dog.jpg",
  url: "ws1/photos/dog.jpg",
  original_url: null,
  workspace_id: WORKSPACE_ID,
  workspace_no: "ws1",
  height: 3,
  width: 4,
  format: "jpg",
  file_size: 11,
  is_delete: false,
  is_active: true,
  created_by: UUID,
  meta_data: { size: 11, width: 4, format: "image/jpeg", height: 3, orientation: null },
  created_at: CREATED,
  updated_at: CREATED,
  transform_string: null,
  source: "api",
  is_default: false,
  orientation: "landscape",
  extension: "jpg",
};

export const folderRecord: FolderRecord = {
  id: UUID,
  folder_no: "F1",
  name: "holidays",
  parent_folder: null,
  workspace_id: WORKSPACE_ID,
  workspace_no: "ws1",
  is_delete: false,
  is_active: true,
  created_by: UUID,
  created_at: CREATED,
  updated_at: CREATED,
  source: "api",
  path: "holidays",
  workspace: { workspace_no: "ws1" },
};

export function source(index: number): Source {
  return {
    id: `7d9f1c2e-4b5a-4c3d-8e9f-0a1b2c3d4e${String(index).padStart(2, "0")}`,
    name: `origin-${index}`,
    type: "s3",
    configuration: { access_key: "********", secret_key: "********", region: "eu-west-1", bucket: "media" },
    is_active: true,
    created_at: CREATED,
    updated_at: null,
  };
}
