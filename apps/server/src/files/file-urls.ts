/**
 * Public URLs of a stored file, all on the delivery host:
 *
 *   fileUrl(app, "k3x9", "photos/cat.jpg")       -> {assets_url}/k3x9/photos/cat.jpg
 *   thumbnailUrl(app, "k3x9", "photos/cat.jpg")  -> {assets_url}/k3x9/w_256,h_256,c_limit,f_webp/photos/cat.jpg
 *
 * The thumbnail is a delivery-time transformation of the file (the
 * `{assets_url}/{workspace_no}/{transform}/{path}` form of ARCHITECTURE.md): WebP inside
 * 256×256, never enlarged. Uploads do not render it: the delivery host renders it on its first
 * request and caches it like any variant (at the file's `thumbnailKey`, see
 * src/uploads/object-keys.ts). Files uploaded before that have a pre-rendered object there,
 * served the same way. The URL follows the file through renames (it is built from the current
 * path, like `url`).
 */
import type { FastifyInstance } from "fastify";

/** The thumbnail fits in a square of this side. */
export const THUMBNAIL_MAX_SIZE = 256;

/** Canonical transform string of the thumbnail (canonicalizeTransform leaves it as is). */
export const THUMBNAIL_TRANSFORM = `w_${THUMBNAIL_MAX_SIZE},h_${THUMBNAIL_MAX_SIZE},c_limit,f_webp`;

type UrlBuilder = Pick<FastifyInstance, "deliveryUrl">;

export function fileUrl(app: UrlBuilder, workspaceNo: string, path: string): string {
  return app.deliveryUrl(workspaceNo, path);
}

export function thumbnailUrl(app: UrlBuilder, workspaceNo: string, path: string): string {
  // deliveryUrl(ws, "") is `{assets_url}/{ws}/`; the transform goes between it and the path.
  const base = app.deliveryUrl(workspaceNo, "");
  const url = app.deliveryUrl(workspaceNo, path);
  return `${base}${THUMBNAIL_TRANSFORM}/${url.slice(base.length)}`;
}
