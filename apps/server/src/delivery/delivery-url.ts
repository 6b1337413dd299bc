/**
 * The public URL of a stored file on the delivery host, `${assetsUrl}/${workspace_no}/${path}`,
 * each segment percent-encoded: what a file's `url` field holds. The app exposes it as
 * `app.deliveryUrl(workspaceNo, path)`, built once from the configured assets URL.
 */

/** Paths made only of what encodeURIComponent leaves alone (and slashes) are already encoded. */
const UNRESERVED_PATH = /^[\w.!~*'()/-]*$/;

/**
 * Each segment percent-encoded, the slashes between them kept. One encodeURIComponent over the
 * whole path, then its encoded slashes back: a `%2F` in its output can only come from a `/`,
 * since a literal `%` is itself encoded (`%25`). A list page builds up to three URLs per row.
 */
export function encodePath(path: string): string {
  return UNRESERVED_PATH.test(path) ? path : encodeURIComponent(path).replaceAll("%2F", "/");
}

/** `deliveryUrlFor(assetsUrl)(workspaceNo, path)`: the assets URL's trailing slashes trimmed once. */
export function deliveryUrlFor(assetsUrl: string): (workspaceNo: string, path: string) => string {
  const base = assetsUrl.replace(/(?<!\/)\/+$/, "");
  return (workspaceNo, path) =>
    `${base}/${encodeURIComponent(workspaceNo)}/${encodePath(stripLeadingSlashes(path))}`;
}

/** The delivery URL of a file: `${assetsUrl}/${workspace_no}/${path}`. */
export function deliveryUrl(assetsUrl: string, workspaceNo: string, path: string): string {
  return deliveryUrlFor(assetsUrl)(workspaceNo, path);
}

function stripLeadingSlashes(path: string): string {
  let start = 0;
  while (path.charCodeAt(start) === 47) start += 1;
  return start === 0 ? path : path.slice(start);
}
