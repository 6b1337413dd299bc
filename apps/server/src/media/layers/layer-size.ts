import type { Size } from "../frame.js";
import { MediaError } from "../media-error.js";
import type { MediaLimits } from "../media-limits.js";

/** A layer's `lw`/`lh`, already multiplied by the step's dpr. */
export interface LayerBox {
  lw?: number;
  lh?: number;
}

/** The layer's drawn size: lw and lh as given, one of them alone keeping the layer's ratio. */
export function layerSize(natural: Size, { lw, lh }: LayerBox): Size {
  if (lw !== undefined && lh !== undefined) return { width: lw, height: lh };
  if (lw !== undefined)
    return { width: lw, height: Math.max(1, Math.round((natural.height * lw) / natural.width)) };
  if (lh !== undefined)
    return { width: Math.max(1, Math.round((natural.width * lh) / natural.height)), height: lh };
  return { width: natural.width, height: natural.height };
}

/**
 * A layer is an image the pipeline makes, held whole while it is composited: the same bounds as
 * any frame (../run-transform.ts), maxOutputPixels always and maxUpscalePixels when it has more
 * pixels than its source (a text layer has none: everything it draws is new work).
 */
export function checkLayerSize(size: Size, source: Size | undefined, limits: MediaLimits): void {
  const pixels = size.width * size.height;
  const made = `a layer of ${size.width}×${size.height} = ${pixels} pixels`;
  if (pixels > limits.maxOutputPixels) {
    throw new MediaError(
      "IMAGE_TOO_LARGE",
      `${made} is more than the ${limits.maxOutputPixels}-pixel output limit`,
    );
  }
  if ((source === undefined || pixels > source.width * source.height) && pixels > limits.maxUpscalePixels) {
    throw new MediaError(
      "IMAGE_TOO_LARGE",
      `${made} is more than the ${limits.maxUpscalePixels}-pixel limit for images larger than their source`,
    );
  }
}
