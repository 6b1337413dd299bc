import { type ImgHTMLAttributes, useEffect, useRef, useState } from "react";
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
   * Shown until the image has loaded: `"blur"` (a tiny rendition of the same image, stretched),
   * a CSS colour or a `data:` URL. None by default.
   */
  placeholder?: "blur" | (string & {});
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
  const background =
    placeholder && !loaded
      ? placeholderStyle(placeholder, () => tinyUrl({ src, transform, width, height, ...where }))
      : undefined;
  return (
    <img
      {...img}
      alt={alt}
      ref={ref}
      src={sources.src}
      srcSet={sources.srcSet}
      sizes={sources.sizes}
      width={width}
      height={height}
      loading={loading}
      decoding={decoding}
      style={background ? { ...background, ...style } : style}
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

function placeholderStyle(placeholder: string, blur: () => string): Record<string, string> {
  const image =
    placeholder === "blur"
      ? `url("${blur()}")`
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
