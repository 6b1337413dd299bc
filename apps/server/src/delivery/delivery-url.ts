/**
 * The public URL of a stored file on the delivery host, `${assetsUrl}/${workspace_no}/${path}`,
 * each segment percent-encoded: what a file's `url` field holds. The format is @trove/schema's
 * (delivery-url-format.ts, shared with the SDK); the app exposes it as
 * `app.deliveryUrl(workspaceNo, path)`, built once from the configured assets URL.
 */
import { deliveryBase, encodeDeliveryPath, joinDeliveryUrl, trimAssetsUrl } from "@trove/schema/zod-free";

/** Each segment percent-encoded, the slashes kept. A list page builds up to three URLs per row. */
export const encodePath = encodeDeliveryPath;

/** `deliveryUrlFor(assetsUrl)(workspaceNo, path)`: the assets URL's trailing slashes trimmed once. */
export function deliveryUrlFor(assetsUrl: string): (workspaceNo: string, path: string) => string {
  const base = trimAssetsUrl(assetsUrl);
  return (workspaceNo, path) =>
    joinDeliveryUrl(deliveryBase(base, workspaceNo), encodeDeliveryPath(stripLeadingSlashes(path)));
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
