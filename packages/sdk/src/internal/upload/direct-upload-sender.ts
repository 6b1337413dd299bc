import type { ApiCall, ApiClient, ApiResponse, RequestSettings } from "../request/index.js";

/**
 * An input's own sending of a direct upload (Node's: ../node/send-direct-upload.ts,
 * the call's FormData encoded as a stream read from the file, never held whole), through callApi's
 * key handling all the same. A leaf module: the resolved input carries it, and the client context
 * holds the input resolver.
 */
export type DirectUploadSender = (
  ctx: RequestSettings & ApiClient,
  call: ApiCall & { form: FormData },
) => Promise<ApiResponse>;
