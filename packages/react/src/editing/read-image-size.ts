/**
 * An image's pixel size as the server will judge it (EXIF orientation applied, so a portrait phone
 * photo is taller than wide), or null for anything that is not an image this browser decodes
 * (HEIC/HEIF always, since only Safari decodes it). createImageBitmap decodes off the main thread.
 */
import { isHeif } from "./image-types.js";

export async function readImageSize(file: File): Promise<{ width: number; height: number } | null> {
  if (!file.type.startsWith("image/") || isHeif(file) || typeof createImageBitmap !== "function") {
    return null;
  }
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null;
  }
}
