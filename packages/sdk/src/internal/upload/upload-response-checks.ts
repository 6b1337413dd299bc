import type { AnyUploadResponse, MultipartCompleteResponse, MultipartSession } from "@trove/schema/zod-free";
import { isRecord } from "../is-record.js";
import type { ResponseSchema, UploadSchemas } from "../request/index.js";

/**
 * Structural checks of the three responses the upload engine reads, for the upload-only entry.
 * The zod schemas of @trove/schema cost ~25 kB gzipped (zod itself), twice that entry's whole
 * budget; these check exactly the fields the engine and UploadResult rely on. createClient()
 * uses the zod schemas instead.
 */
export const uploadResponseChecks: UploadSchemas = {
  upload: check<AnyUploadResponse>((body) =>
    body.success === true && isRecord(body.data)
      ? hasFileFields(body.data) && isCount(body.data.file_size)
      : hasFileFields(body) && isCount(body.size),
  ),
  session: check<MultipartSession>(
    (body) =>
      isText(body.session_id) &&
      isCount(body.part_size) &&
      body.part_size > 0 &&
      Array.isArray(body.parts) &&
      body.parts.length > 0 &&
      body.parts.every(isText) &&
      Number.isInteger(body.expires_at),
  ),
  complete: check<MultipartCompleteResponse>(
    (body) =>
      body.success === true &&
      isRecord(body.data) &&
      hasFileFields(body.data) &&
      isCount(body.data.file_size),
  ),
};

function check<T>(test: (body: Record<string, unknown>) => boolean): ResponseSchema<T> {
  return {
    safeParse: (value) =>
      isRecord(value) && test(value)
        ? { success: true, data: value as T }
        : { success: false, error: new Error("required fields are missing or of the wrong type") },
  };
}

function hasFileFields(body: Record<string, unknown>): boolean {
  return (
    isText(body.file_no) && isText(body.name) && isText(body.url) && isText(body.path) && isText(body.format)
  );
}

const isText = (value: unknown): value is string => typeof value === "string";
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
