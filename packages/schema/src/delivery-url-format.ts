/**
 * The delivery host's URL format, written once for the server (which builds a file's `url` and
 * parses a request's path) and the SDK (which builds `client.url()`):
 *
 *   {assets}/{workspace_no}/{path}                      a stored file
 *   {assets}/{workspace_no}/{transform}/{path}          a variant of it
 *   {assets}/{workspace_no}-{source name}/{path}        an object of a source (transform optional)
 *   {assets}/{workspace_no}/st_{h}_{h}/{path}/ar-master.m3u8   a video's HLS ladder (issue #33)
 *
 * Every path segment is percent-encoded on its own, the slashes between them kept. Zod-free: the
 * SDK and the server's hot path (up to three URLs per row of a file list) read it.
 */

/** A workspace number: the first segment, before the source separator. */
export const WORKSPACE_NO_PATTERN = /^[A-Za-z0-9]{1,32}$/;
/** A source's name, after the separator (workspace numbers hold no `-`, so the first one splits). */
export const SOURCE_NAME_PATTERN = /^[A-Za-z0-9_-]{1,255}$/;
const SOURCE_SEPARATOR = "-";

/** Paths made only of what encodeURIComponent leaves alone (and slashes) are already encoded. */
const UNRESERVED_PATH = /^[\w.!~*'()/-]*$/;

/**
 * Each segment percent-encoded, the slashes between them kept. One encodeURIComponent over the
 * whole path, then its encoded slashes back: a `%2F` in its output can only come from a `/`,
 * since a literal `%` is itself encoded (`%25`). The regex skips the work for plain paths.
 */
export function encodeDeliveryPath(path: string): string {
  return UNRESERVED_PATH.test(path) ? path : encodeURIComponent(path).replaceAll("%2F", "/");
}

/** The HLS master playlist's name, after a video's path in a streaming URL (the hosted service's). */
export const HLS_MASTER_PLAYLIST = "ar-master.m3u8";

/** The assets URL without its trailing slashes (a lone `/` after the host is kept). */
export function trimAssetsUrl(assetsUrl: string): string {
  return assetsUrl.replace(/(?<!\/)\/+$/, "");
}

/** `{assets}/{workspace_no}` or `{assets}/{workspace_no}-{source}`; `assets` already trimmed. */
export function deliveryBase(assets: string, workspaceNo: string, source?: string): string {
  const workspace = encodeURIComponent(workspaceNo);
  return source === undefined
    ? `${assets}/${workspace}`
    : `${assets}/${workspace}${SOURCE_SEPARATOR}${source}`;
}

/** `{base}/{transform}/{path}`, or `{base}/{path}` without a transform; `path` already encoded. */
export function joinDeliveryUrl(base: string, encodedPath: string, transform?: string): string {
  return transform ? `${base}/${transform}/${encodedPath}` : `${base}/${encodedPath}`;
}

/** The first segment of a delivery path, decoded: a workspace number and maybe a source's name. */
export function parseWorkspaceSegment(segment: string): { workspaceNo: string; source?: string } | null {
  const separator = segment.indexOf(SOURCE_SEPARATOR);
  const workspaceNo = separator === -1 ? segment : segment.slice(0, separator);
  if (!WORKSPACE_NO_PATTERN.test(workspaceNo)) return null;
  if (separator === -1) return { workspaceNo };
  const source = segment.slice(separator + 1);
  return SOURCE_NAME_PATTERN.test(source) ? { workspaceNo, source } : null;
}
