/**
 * Shrinks an image before upload so a 12-megapixel phone photo does not send 8 MB for a 1000-pixel
 * avatar. JPEG stays JPEG, PNG stays PNG (quality ignored), WebP stays WebP (Safari, which cannot
 * encode WebP, writes PNG and the extension follows). The file comes back unchanged when it is not
 * a JPEG/PNG/WebP (GIF keeps its animation), when it is HEIC/HEIF (only Safari decodes it; the
 * server converts or stores it), when it already fits, or when the browser cannot decode it.
 *
 * Metadata: the EXIF orientation is applied to the pixels first, then re-encoding drops EXIF, GPS,
 * XMP and colour profiles. A file that is not re-encoded keeps all of it.
 */
import { canEditImage, encodedFile } from "./image-types.js";
import { runRender } from "./run-render.js";

export interface PrepareImageOptions {
  maxWidth?: number;
  maxHeight?: number;
  /** 0–1 for JPEG and WebP (default: the browser's, 0.92 in Chromium); PNG ignores it. */
  quality?: number;
}

export async function prepareImage(file: File, options: PrepareImageOptions): Promise<File> {
  if (!canEditImage(file) || typeof createImageBitmap !== "function") return file;
  if (options.maxWidth === undefined && options.maxHeight === undefined) return file;
  try {
    const blob = await runRender(file, {
      quarterTurns: 0,
      maxWidth: options.maxWidth,
      maxHeight: options.maxHeight,
      type: file.type,
      quality: options.quality,
    });
    return blob ? encodedFile(file, blob) : file;
  } catch {
    // Undecodable (corrupt, or a type the browser lacks): the server judges the original.
    return file;
  }
}
