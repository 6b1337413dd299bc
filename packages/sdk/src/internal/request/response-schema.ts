import type { AnyUploadResponse, MultipartCompleteResponse, MultipartSession } from "@trove/schema/zod-free";
import { InvalidResponseError } from "../errors.js";
import type { ApiResponse } from "./api-call.js";

/**
 * What the SDK needs of a schema: zod's safeParse. A failure's `error.message` goes into the
 * InvalidResponseError (zod-issues.ts writes zod's issues as one line; the upload-only entry
 * passes lighter checks with their own message).
 */
export interface ResponseSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: unknown };
}

/** The responses the upload engine reads: zod schemas in createClient, structural checks in createUploadClient. */
export interface UploadSchemas {
  upload: ResponseSchema<AnyUploadResponse>;
  session: ResponseSchema<MultipartSession>;
  complete: ResponseSchema<MultipartCompleteResponse>;
}

/** A 2xx body that does not match its schema is an InvalidResponseError, never a crash later on. */
export function parseResponse<T>(schema: ResponseSchema<T>, response: ApiResponse, what: string): T {
  const result = schema.safeParse(response.body);
  if (result.success) return result.data;
  throw new InvalidResponseError(
    `The ${what} response does not match the API: ${result.error instanceof Error ? result.error.message : String(result.error)}`,
    {
      code: "INVALID_RESPONSE",
      status: response.status,
      requestId: response.requestId,
      body: response.body,
      cause: result.error,
    },
  );
}
