import type { CreateUploadTokenBody, UploadTokenResponse } from "@trove/schema";
import { callEndpoint } from "../call-endpoint.js";
import type { ClientContext } from "../client/client-context.js";
import type { RequestOptions } from "./files.js";

export type { CreateUploadTokenBody, UploadPolicy, UploadTokenResponse } from "@trove/schema";

export interface UploadTokensResource {
  /**
   * Mints an upload token (private key only) for a browser to upload with, within `policy`:
   * folder, size per file, sniffed types, fixed tags/metadata/custom_id, remote and multipart
   * uploads. It lasts `expires_in` seconds (default 600) and creates `max_files` files (default 1).
   * Hand `token` to the browser; the browser gives it to `createUploadClient({ token })`.
   */
  create(policy?: CreateUploadTokenBody, options?: RequestOptions): Promise<UploadTokenResponse>;
}

export function uploadTokensResource(ctx: ClientContext): UploadTokensResource {
  return {
    create: (policy = {}, options = {}) =>
      callEndpoint(ctx, "createUploadToken", { json: policy, signal: options.signal }),
  };
}
