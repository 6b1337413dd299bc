/**
 * Path-parameter parsers for routes: a malformed id is the group's 404, never a 400 or a 5xx
 * (a non-numeric fileNo cannot name a file, so the file is not found).
 *
 *   const fileNo = parseFileNo(request.params.fileNo);            // bigint, or throws 404 File not found
 *   const id = parseUuidParam(request.params.sourceId, "sources"); // string, or throws 404 Source not found
 */
import type { ResponseGroup } from "@trove/schema";
import { notFound } from "./index.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILE_NO = /^[1-9][0-9]{0,18}$/;
const SHORT_NO = /^[A-Za-z0-9]{1,32}$/;
const MAX_BIGINT = 9223372036854775807n;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/** `{fileNo}`: a positive integer that fits a PostgreSQL bigint. */
export function parseFileNo(value: unknown, group: ResponseGroup = "files"): bigint {
  if (typeof value !== "string" || !FILE_NO.test(value)) throw notFound(group);
  const n = BigInt(value);
  if (n > MAX_BIGINT) throw notFound(group);
  return n;
}

export function parseUuidParam(value: unknown, group: ResponseGroup): string {
  if (!isUuid(value)) throw notFound(group);
  return value.toLowerCase();
}

/** `{folderNo}`, `workspace_no`: short alphanumeric. */
export function parseShortNo(value: unknown, group: ResponseGroup): string {
  if (typeof value !== "string" || !SHORT_NO.test(value)) throw notFound(group);
  return value;
}
