/**
 * The public URL of a stored file on the delivery host, `${assetsUrl}/${workspace_no}/${path}`,
 * each segment percent-encoded: what a file's `url` field holds. The app exposes it as
 * `app.deliveryUrl(workspaceNo, path)`.
 */

export function encodePath(path: string): string {
  return path
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}

/** The delivery URL of a file: `${assetsUrl}/${workspace_no}/${path}`. */
export function deliveryUrl(assetsUrl: string, workspaceNo: string, path: string): string {
  return `${assetsUrl.replace(/(?<!\/)\/+$/, "")}/${encodeURIComponent(workspaceNo)}/${encodePath(path.replace(/^\/+/, ""))}`;
}
