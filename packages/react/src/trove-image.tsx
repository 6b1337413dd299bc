import { placeholderUrl } from "@trove/sdk/placeholder";
import { type CSSProperties, type ImgHTMLAttributes, useEffect, useRef, useState } from "react";
import { type FileRecordSize, recordOf, recordSize } from "./file-record.js";
import { type ImageSourceOptions, imageSources } from "./image-sources.js";
import { useTroveContext } from "./trove-context.js";

export interface TroveImageProps
  extends Omit<
      ImgHTMLAttributes<HTMLImageElement>,
      "src" | "srcSet" | "sizes" | "width" | "height" | "placeholder"
    >,
    Omit<ImageSourceOptions, "assetsUrl" | "workspaceNo"> {
  /** Required: describe the picture, or `""` when it is decoration. */
  alt: string;
  /** Overrides the provider's delivery host. */
  assetsUrl?: string;
  workspaceNo?: string;
  /**
   * Shown until the image has loaded: `"blur"` (the record's placeholder image when `file` has
   * one, else a tiny rendition of the same image, stretched), `"color"` (the record's dominant
   * colour), `"none"`, a CSS colour or a `data:` URL. Default: `"blur"` when `file` has a
   * placeholder, else none.
   */
  placeholder?: "blur" | "color" | "none" | (string & {});
  /**
   * The file's record (details, list row or upload response; default: `src` when it is one): its
   * `placeholder` is shown while the image loads, and its width and height, when `width` and
   * `height` are not given, are written on the `<img>` (with `max-width: 100%; height: auto`)
   * so the page does not shift.
   */
  file?: TroveImageFile | null;
}

/** What `<TroveImage file>` reads of a file record: list rows, details and upload responses all fit. */
export interface TroveImageFile extends FileRecordSize {
  placeholder?: { thumbhash: string; color: string; data_url?: string | undefined } | null | undefined;
}

/**
 * A responsive `<img>` of a stored file or a source object: `srcSet` over width buckets (or 1×/2×
 * of a fixed `width`), `f_auto`, `loading="lazy"` and `decoding="async"` by default, `width` and
 * `height` written out so the page does not shift when it loads.
 */
export function TroveImage({
  src,
  alt,
  transform,
  width,
  height,
  sizes,
  widths,
  format,
  quality,
  assetsUrl,
  workspaceNo,
  placeholder,
  file,
  loading = "lazy",
  decoding = "async",
  style,
  onLoad,
  ...img
}: TroveImageProps) {
  const trove = useTroveContext();
  const where = {
    assetsUrl: assetsUrl ?? trove?.assetsUrl,
    workspaceNo: workspaceNo ?? trove?.workspaceNo,
  };
  const sources = imageSources({ src, transform, width, height, sizes, widths, format, quality, ...where });
  const [loaded, setLoaded] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  // An image that loaded before hydration fired its load event before React listened.
  useEffect(() => {
    if (ref.current?.complete) setLoaded(true);
  }, []);
  const record = file === undefined ? recordOf<TroveImageFile>(src) : file;
  const recorded = record?.placeholder ?? null;
  const shown = placeholder ?? (recorded ? "blur" : "none");
  const background =
    shown !== "none" && !loaded
      ? placeholderStyle(shown, recorded, () => tinyUrl({ src, transform, width, height, ...where }))
      : undefined;
  // The record's size, only as the <img>'s attributes (its aspect ratio before it loads): the
  // sources are still chosen by `width`/`sizes` as given.
  const intrinsic = width === undefined && height === undefined ? recordSize(record) : undefined;
  const sized: CSSProperties | undefined = intrinsic ? { maxWidth: "100%", height: "auto" } : undefined;
  const merged = sized || background ? { ...sized, ...background, ...style } : style;
  return (
    <img
      {...img}
      alt={alt}
      ref={ref}
      src={sources.src}
      srcSet={sources.srcSet}
      sizes={sources.sizes}
      width={width ?? intrinsic?.width}
      height={height ?? intrinsic?.height}
      loading={loading}
      decoding={decoding}
      style={merged}
      onLoad={(event) => {
        setLoaded(true);
        onLoad?.(event);
      }}
    />
  );
}

/**
 * A 24-pixel-wide rendition (about 1 kB): stretched over the box by the browser it reads as a
 * blurred preview, and the server makes it from the same cached original.
 */
function tinyUrl(options: ImageSourceOptions): string {
  const { width, height } = options;
  const tinyHeight = width && height ? Math.max(1, Math.round((24 * height) / width)) : undefined;
  return imageSources({ ...options, width: 24, height: tinyHeight, sizes: undefined, quality: 30 }).src;
}

/** The record's placeholder image; null without one, or when its ThumbHash does not decode. */
function recordedImage(recorded: TroveImageFile["placeholder"]): string | null {
  try {
    return placeholderUrl(recorded);
  } catch {
    return null;
  }
}

function placeholderStyle(
  placeholder: string,
  recorded: TroveImageFile["placeholder"],
  blur: () => string,
): Record<string, string> | undefined {
  if (placeholder === "color") return recorded ? { backgroundColor: recorded.color } : undefined;
  const image =
    placeholder === "blur"
      ? `url("${recordedImage(recorded) ?? blur()}")`
      : placeholder.startsWith("data:")
        ? `url("${placeholder}")`
        : undefined;
  return image
    ? {
        backgroundImage: image,
        backgroundSize: "cover",
        backgroundPosition: "center",
        backgroundRepeat: "no-repeat",
      }
    : { backgroundColor: placeholder };
}
