import type { UploadResult } from "@trove/sdk/upload";

/** The transformation the server uses for thumbnails: inside 256×256, never enlarged, WebP. */
const THUMBNAIL = "w_256,h_256,c_limit,f_webp";

const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");

/**
 * A thumbnail URL on the delivery host for an uploaded image. A direct upload's result carries
 * `thumbnail`; a multipart result has `workspace_no` and `path`, so the URL is built as
 * `{assets}/{workspace_no}/{transform}/{path}`, or, without an assets URL, from the file's own
 * `url` (`{assets}/{workspace_no}/{path}`) with the transformation put where the path starts.
 */
export function thumbnailUrl(result: UploadResult, assetsUrl: string | undefined): string | undefined {
  if (result.thumbnail) return result.thumbnail;
  const path = encodePath(result.path);
  if (assetsUrl && result.workspace_no) {
    return `${assetsUrl}/${encodeURIComponent(result.workspace_no)}/${THUMBNAIL}/${path}`;
  }
  if (result.url.endsWith(`/${path}`)) return `${result.url.slice(0, -path.length)}${THUMBNAIL}/${path}`;
  return undefined;
}
