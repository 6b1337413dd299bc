import type {
  AnyUploadResponse,
  MultipartCompleteResponse,
  MultipartCompleteResult,
  UploadResponse,
} from "@trove/schema/zod-free";

type Common = "file_no" | "name" | "url" | "path" | "format" | "size";

/**
 * One result for every way a file gets stored: the flat upload response, the `{ success, data }`
 * body (Trove's default, with every field of the flat record in `data`, or the hosted service's
 * nine fields), and the multipart-complete result. The fields all of them carry are always set
 * (`size` is the flat shape's `size` and the others' `file_size`); the rest are set when the
 * server's shape has them. `response` is the body exactly as received.
 */
export type UploadResult = Pick<UploadResponse, Common> &
  Partial<Omit<UploadResponse, Common>> &
  Partial<Pick<MultipartCompleteResult, "workspace_no">> & {
    response: AnyUploadResponse | MultipartCompleteResponse;
  };

export function uploadResultFrom(response: AnyUploadResponse | MultipartCompleteResponse): UploadResult {
  if ("success" in response) {
    const { file_size, ...fields } = response.data;
    return { ...fields, size: file_size, response };
  }
  return { ...response, response };
}
