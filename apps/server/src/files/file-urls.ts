/**
 * Public URLs of a stored file, all on the delivery host:
 *
 *   fileUrl(app, "k3x9", "photos/cat.jpg")       -> {assets_url}/k3x9/photos/cat.jpg
 *   thumbnailUrl(app, "k3x9", "photos/cat.jpg")  -> {assets_url}/k3x9/w_256,h_256,c_limit,f_webp/photos/cat.jpg
 *
 * The thumbnail is addressed as a delivery-time transformation of the file (the
 * `{assets_url}/{workspace_no}/{transform}/{path}` form of ARCHITECTURE.md), with the transform
 * that describes the thumbnail the upload pipeline stores at `thumbnailKey` (WebP inside 256×256,
 * never enlarged; src/media/make-thumbnail.ts). So the URL keeps working whether the delivery
 * route renders the variant on the fly or serves the pre-rendered object for this exact transform,
 * and it follows the file through renames (it is built from the current path, like `url`).
 */
import type { FastifyInstance } from "fastify";
import { THUMBNAIL_MAX_SIZE } from "../media/make-thumbnail.js";

/** Canonical transform string of the stored thumbnail (canonicalizeTransform leaves it as is). */
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
