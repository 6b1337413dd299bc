/**
 * Decode, rotate, crop, scale and encode one image. It runs inside a Worker made from its own
 * source text (see run-render.ts), so it must stay self-contained: no imports, no helpers from
 * outside its body, nothing a bundler could rename out from under it.
 *
 * The decode applies the EXIF orientation (`imageOrientation: "from-image"`), so a portrait phone
 * photo comes out portrait; re-encoding from pixels drops every metadata block (EXIF, GPS, XMP, ICC
 * profiles included), which is why a file that needs no change is answered with `null` and kept.
 */
export interface RenderPlan {
  /** Quarter turns clockwise, 0–3, applied before the crop. */
  quarterTurns: number;
  /** In pixels of the rotated image; absent: all of it. */
  crop?: { x: number; y: number; width: number; height: number } | undefined;
  /** Scale the result down (never up) to fit. */
  maxWidth?: number | undefined;
  maxHeight?: number | undefined;
  type: string;
  /** 0–1 for JPEG and WebP; PNG ignores it. */
  quality?: number | undefined;
}

export async function renderImage(source: Blob, plan: RenderPlan): Promise<Blob | null> {
  const bitmap = await createImageBitmap(source, { imageOrientation: "from-image" });
  try {
    const turned = plan.quarterTurns % 2 === 1;
    const fullWidth = turned ? bitmap.height : bitmap.width;
    const fullHeight = turned ? bitmap.width : bitmap.height;
    const crop = plan.crop ?? { x: 0, y: 0, width: fullWidth, height: fullHeight };
    const scale = Math.min(
      1,
      (plan.maxWidth ?? crop.width) / crop.width,
      (plan.maxHeight ?? crop.height) / crop.height,
    );
    const untouched =
      plan.quarterTurns % 4 === 0 && crop.width === fullWidth && crop.height === fullHeight && scale === 1;
    if (untouched) return null;
    const width = Math.max(1, Math.round(crop.width * scale));
    const height = Math.max(1, Math.round(crop.height * scale));
    const canvas =
      typeof OffscreenCanvas === "function"
        ? new OffscreenCanvas(width, height)
        : Object.assign(document.createElement("canvas"), { width, height });
    const context = canvas.getContext("2d") as
      | OffscreenCanvasRenderingContext2D
      | CanvasRenderingContext2D
      | null;
    if (!context) throw new Error("no 2D canvas context");
    context.imageSmoothingQuality = "high";
    // Output pixels ← crop window of the rotated image ← the decoded bitmap turned about its centre.
    context.scale(width / crop.width, height / crop.height);
    context.translate(-crop.x, -crop.y);
    context.translate(fullWidth / 2, fullHeight / 2);
    context.rotate((plan.quarterTurns * Math.PI) / 2);
    context.drawImage(bitmap, -bitmap.width / 2, -bitmap.height / 2);
    const options = { type: plan.type, quality: plan.quality };
    if ("convertToBlob" in canvas) return await canvas.convertToBlob(options);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error("the browser could not encode the image"))),
        options.type,
        options.quality,
      ),
    );
  } finally {
    bitmap.close();
  }
}
