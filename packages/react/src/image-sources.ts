/**
 * `src`, `srcSet` and `sizes` of a Trove image: the caller's transform, then one resize step per
 * width. Pure (no React, no browser), so a server component can call it too.
 */
import { type DeliveryTarget, type DeliveryTransform, deliveryUrl } from "@trove/sdk";
import { buildTransform, type TransformStep } from "@trove/sdk/transform";

/** Widths the `srcSet` offers when `sizes` is given: common layout widths up to a 2× 1280 screen. */
export const DEFAULT_WIDTHS: readonly number[] = [320, 480, 640, 768, 1024, 1280, 1600, 1920, 2560];

/** The largest width a transform may ask for (the server's limit). */
const MAX_WIDTH = 8192;

export type ImageFormat = NonNullable<TransformStep["f"]>;

export interface ImageSourceOptions {
  src: DeliveryTarget;
  /** Applied first: a string (`"e_grayscale"`, `"t_card"`) or typed steps. */
  transform?: DeliveryTransform;
  /** Displayed width in CSS pixels; with `sizes` unset the `srcSet` is `1x`/`2x` of it. */
  width?: number;
  /** Displayed height; with `width` the resize crops to that aspect ratio (`c_fill`). */
  height?: number;
  /** As `<img sizes>`; the `srcSet` then lists `widths`. */
  sizes?: string;
  widths?: readonly number[];
  /** Output format; default `auto` (the server picks AVIF or WebP from the browser's Accept). */
  format?: ImageFormat;
  quality?: TransformStep["q"];
  assetsUrl?: string;
  workspaceNo?: string;
}

export interface ImageSources {
  src: string;
  srcSet: string;
  sizes: string | undefined;
}

export function imageSources(options: ImageSourceOptions): ImageSources {
  const { width, sizes } = options;
  const at = (w: number) => resizedUrl(options, w);
  if (width !== undefined && sizes === undefined) {
    // A fixed-size image: the same picture for 1× and 2× screens.
    return { src: at(width), srcSet: `${at(width)} 1x, ${at(width * 2)} 2x`, sizes: undefined };
  }
  const candidates = (options.widths ?? DEFAULT_WIDTHS).filter((w) => Number.isInteger(w) && w > 0);
  // Wider than twice the displayed width serves no screen in use today.
  const capped = width === undefined ? candidates : candidates.filter((w) => w <= width * 2);
  const widths = [...new Set(capped.length > 0 ? capped : candidates.slice(0, 1))].sort((a, b) => a - b);
  if (widths.length === 0) throw new RangeError("TroveImage needs at least one positive integer width");
  return {
    src: at(width ?? widths[widths.length - 1]!),
    srcSet: widths.map((w) => `${at(w)} ${w}w`).join(", "),
    sizes: sizes ?? "100vw",
  };
}

function resizedUrl(options: ImageSourceOptions, width: number): string {
  const w = Math.min(MAX_WIDTH, Math.round(width));
  const step: TransformStep = { w, f: options.format ?? "auto" };
  if (options.height !== undefined && options.width !== undefined) {
    step.h = Math.min(MAX_WIDTH, Math.max(1, Math.round((w * options.height) / options.width)));
    step.c = "fill";
  } else {
    step.c = "limit"; // never enlarged past the original
  }
  if (options.quality !== undefined) step.q = options.quality;
  return deliveryUrl(options.src, chain(options.transform, step), options.assetsUrl, options.workspaceNo);
}

/** The caller's transform followed by the resize, keeping a string exactly as written. */
function chain(transform: DeliveryTransform | undefined, step: TransformStep): DeliveryTransform {
  if (transform === undefined || transform === "") return step;
  if (typeof transform === "string") return `${transform}/${buildTransform(step)}`;
  return [...(Array.isArray(transform) ? transform : [transform as TransformStep]), step];
}
