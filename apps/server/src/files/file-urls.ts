/**
 * URLs of a stored file, all on the delivery host:
 *
 *   fileUrl(app, "k3x9", file)       -> {assets_url}/k3x9/photos/cat.jpg
 *   thumbnailUrl(app, "k3x9", file)  -> {assets_url}/k3x9/w_256,h_256,c_limit,f_webp/photos/cat.jpg
 *
 * A private file's URLs are signed (src/signing/delivery-signature.ts) for
 * `config.signedUrlTtlSeconds` from now, bound to the file's id: its plain URL answers 404 like a
 * missing file, and so does the signed one once another file takes its path.
 *
 * The thumbnail is a delivery-time transformation of the file (the
 * `{assets_url}/{workspace_no}/{transform}/{path}` form, docs/TRANSFORMS.md): WebP inside
 * 256×256, never enlarged. Uploads do not render it: the delivery host renders it on its first
 * request and caches it like any variant (at the file's `thumbnailKey`, see
 * src/storage/object-keys.ts). Files uploaded before that have a pre-rendered object there,
 * served the same way. The URL follows the file through renames (it is built from the current
 * path, like `url`).
 */
import type { ServerConfig } from "../config.js";
import { signDelivery } from "../signing/delivery-signature.js";

/** The thumbnail fits in a square of this side. */
export const THUMBNAIL_MAX_SIZE = 256;

/** Canonical transform string of the thumbnail (canonicalizeTransform leaves it as is). */
export const THUMBNAIL_TRANSFORM = `w_${THUMBNAIL_MAX_SIZE},h_${THUMBNAIL_MAX_SIZE},c_limit,f_webp`;

/** What a file's URLs are built from: the delivery URL of a path, and the signing settings. */
export interface UrlBuilder {
  /** `${assetsUrl}/${workspace_no}/${path}`, each segment percent-encoded (src/delivery/delivery-url.ts). */
  deliveryUrl(workspaceNo: string, path: string): string;
  config: Pick<ServerConfig, "urlSigning" | "signedUrlTtlSeconds">;
}

/** What the URLs of a file depend on. */
export interface UrlFile {
  /** The row's id, signed into a private file's URLs. */
  id: string;
  path: string;
  isPrivate: boolean;
}

/** `{assets_url}/{ws}/{transform/}{path}`, signed until `expiresAt` for a private file. */
export function transformedUrl(
  app: UrlBuilder,
  workspaceNo: string,
  file: UrlFile,
  transform: string,
  expiresAt = new Date(Date.now() + app.config.signedUrlTtlSeconds * 1000),
  /** After the path, not signed (a streaming package's `/ar-master.m3u8`). */
  suffix = "",
): string {
  const plain = app.deliveryUrl(workspaceNo, file.path) + suffix;
  let url = plain;
  if (transform !== "") {
    // deliveryUrl(ws, "") is `{assets_url}/{ws}/`; the transform goes between it and the path.
    const base = app.deliveryUrl(workspaceNo, "");
    url = `${base}${transform}/${plain.slice(base.length)}`;
  }
  if (!file.isPrivate) return url;
  return `${url}?${signDelivery(
    app.config.urlSigning,
    { workspaceNo, fileId: file.id, path: file.path, transform },
    expiresAt,
  )}`;
}

export function fileUrl(app: UrlBuilder, workspaceNo: string, file: UrlFile): string {
  return transformedUrl(app, workspaceNo, file, "");
}

export function thumbnailUrl(app: UrlBuilder, workspaceNo: string, file: UrlFile): string {
  return transformedUrl(app, workspaceNo, file, THUMBNAIL_TRANSFORM);
}
