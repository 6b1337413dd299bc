/**
 * The editor's crop rectangle, in pixels of the rotated image. Every change keeps it inside the
 * image and, when an aspect ratio is chosen, at that ratio (width / height).
 */
export interface CropBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ImageBounds {
  width: number;
  height: number;
}

/** The largest box of `ratio` centred on the image (all of it when `ratio` is null). */
export function initialCrop(image: ImageBounds, ratio: number | null): CropBox {
  if (ratio === null) return { x: 0, y: 0, width: image.width, height: image.height };
  const width = Math.min(image.width, Math.round(image.height * ratio));
  const height = Math.min(image.height, Math.round(width / ratio));
  return {
    x: Math.round((image.width - width) / 2),
    y: Math.round((image.height - height) / 2),
    width,
    height,
  };
}

export function moveCrop(box: CropBox, image: ImageBounds, dx: number, dy: number): CropBox {
  return {
    ...box,
    x: clamp(box.x + dx, 0, image.width - box.width),
    y: clamp(box.y + dy, 0, image.height - box.height),
  };
}

/**
 * Grows or shrinks the box from its top-left corner by `dx` × `dy` (a ratio drives the height
 * from the width, or the width from the height when only `dy` is given).
 */
export function resizeCrop(
  box: CropBox,
  image: ImageBounds,
  dx: number,
  dy: number,
  ratio: number | null,
): CropBox {
  const maxWidth = image.width - box.x;
  const maxHeight = image.height - box.y;
  if (ratio === null) {
    return {
      ...box,
      width: clamp(box.width + dx, 1, maxWidth),
      height: clamp(box.height + dy, 1, maxHeight),
    };
  }
  const wanted = dx !== 0 ? box.width + dx : (box.height + dy) * ratio;
  const width = clamp(
    Math.round(wanted),
    Math.max(1, Math.ceil(ratio)),
    Math.min(maxWidth, maxHeight * ratio),
  );
  return { ...box, width: Math.floor(width), height: Math.max(1, Math.round(width / ratio)) };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
