/**
 * The labels a request is counted under: its route's pattern, never its URL, so that made-up
 * paths (a scanner's, a fuzzer's) all land in one `unmatched` series instead of one each.
 */
import type { FastifyRequest } from "fastify";
import type { UploadMethod } from "../uploads/upload-method.js";

/** The label of every request no route matched (404s of unknown paths, malformed URLs). */
export const UNMATCHED_ROUTE = "unmatched";

export function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}

/** Upload path of the endpoints that finish an upload; undefined for every other route. */
export function uploadPathOf(request: FastifyRequest): UploadMethod | undefined {
  switch (request.routeOptions.config?.operationId) {
    case "uploadFile":
      return "direct";
    case "uploadFromUrl":
      return "remote";
    case "completeMultipartUpload":
      return "multipart";
    default:
      return undefined;
  }
}
