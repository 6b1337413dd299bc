/**
 * Which image types the browser side edits. Browsers encode JPEG, PNG and WebP from a canvas (Safari
 * writes PNG when asked for WebP, so the type is read from the encoded blob, never assumed). GIF
 * (animation would be lost), SVG, AVIF and the rest pass through untouched. HEIC/HEIF: only Safari
 * decodes it, so it is never touched on any browser; the server converts or stores it.
 */
export const ENCODABLE_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;

const HEIF_TYPES = new Set(["image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence"]);

export function isHeif(file: Blob & { name?: string }): boolean {
  return HEIF_TYPES.has(file.type) || /\.(heic|heif)$/i.test(file.name ?? "");
}

/** True for a JPEG, PNG or WebP: the types `prepareImage` and `ImageEditor` re-encode. */
export function canEditImage(file: File): boolean {
  return (ENCODABLE_TYPES as readonly string[]).includes(file.type) && !isHeif(file);
}

const EXTENSIONS: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };

/** The same file name, its extension changed only when the encoder wrote another type. */
export function renamedFor(file: File, type: string): string {
  if (type === file.type) return file.name;
  const extension = EXTENSIONS[type];
  if (!extension) return file.name;
  const dot = file.name.lastIndexOf(".");
  return `${dot > 0 ? file.name.slice(0, dot) : file.name}.${extension}`;
}

/** A File of the encoded bytes, keeping the original's name (see renamedFor) and dates. */
export function encodedFile(original: File, blob: Blob): File {
  const type = blob.type || original.type;
  return new File([blob], renamedFor(original, type), { type, lastModified: original.lastModified });
}
