import { canonicalTransform, type Transformation } from "@trove/schema";
import { encodeImage } from "./encode-image.js";
import { type ImageInput, inputSize } from "./image-input.js";
import { type MediaLimits, resolveMediaLimits } from "./media-limits.js";
import { openRasterImage, readRasterHeader } from "./open-raster-image.js";
import { outputDirectives, resolveOutputFormat } from "./output-format.js";
import { FORMAT_EXTENSIONS, type RasterFormat } from "./raster-format.js";
import { type ImageHeader, type ImageOrientation, orientationOf } from "./read-image-header.js";
import { readTransform } from "./read-transform.js";
import { mapRenderError, runTransform } from "./run-transform.js";

export interface ProcessImageOptions {
  /** The stored upload: a file path (preferred: libvips reads it itself) or its bytes. */
  input: ImageInput;
  /** The upload's `transform` field, as a string or parsed; absent or a no-op keeps the original. */
  transform?: Transformation | string;
  limits?: Partial<MediaLimits>;
  /** Bytes of the input, when the caller knows them (saves a stat of a path). */
  size?: number;
}

/**
 * What to store. `original`: no transformation, keep the uploaded bytes exactly (no re-encode,
 * no loss; the hash computed while streaming stays valid). `transformed`: store these bytes
 * instead, and hash them.
 */
export type ProcessedOutput = { kind: "original" } | { kind: "transformed"; buffer: Buffer };

/** The stored file as the file record describes it. */
export interface ProcessedInfo {
  /** As displayed (EXIF orientation applied), so width/height match what browsers show. */
  width: number;
  height: number;
  orientation: ImageOrientation;
  format: RasterFormat;
  mimeType: string;
  /** Without the dot; may differ from the uploaded name's when `f` changed the format. */
  extension: string;
  /** Bytes. */
  size: number;
}

export interface ProcessedImage {
  output: ProcessedOutput;
  info: ProcessedInfo;
  /** The upload as received, before any transformation. */
  input: ImageHeader;
  /** The canonical transform applied ("" for none): what `transform_string` records. */
  transform: string;
}

/**
 * Store-time processing of an uploaded raster image: header, and the optional transformation
 * (applied once; `f_auto` means webp here). Without a transformation only the header is read:
 * the pixels are not decoded at upload (the thumbnail is a delivery-time variant, rendered on
 * its first request), so a file whose header is sound but whose pixel data is corrupt is
 * described from its header and refused only when something renders it. Throws MediaError (400)
 * for a non-raster file or a corrupt header, and for corrupt pixels when transforming
 * (UNSUPPORTED_MEDIA_TYPE), a bomb or an output over the cap (IMAGE_TOO_LARGE), and a bad
 * transform (INVALID_TRANSFORM).
 */
export async function processImage(options: ProcessImageOptions): Promise<ProcessedImage> {
  const limits = resolveMediaLimits(options.limits);
  const steps = readTransform(options.transform);
  if (steps.length === 0) {
    const header = await readRasterHeader(options.input, limits);
    return {
      output: { kind: "original" },
      info: {
        width: header.width,
        height: header.height,
        orientation: header.orientation,
        format: header.format,
        mimeType: header.mimeType,
        extension: FORMAT_EXTENSIONS[header.format],
        size: options.size ?? (await inputSize(options.input)),
      },
      input: header,
      transform: "",
    };
  }

  const { open, header } = await openRasterImage(options.input, limits);
  const rendered = await runTransform(open, header, steps, limits);
  const { format, quality } = outputDirectives(steps);
  const outputFormat = resolveOutputFormat(format, header.format, rendered.hasAlpha, () => "webp");
  const encoded = await encodeImage(rendered.image(), outputFormat, quality).catch((error: unknown) => {
    throw mapRenderError(error, rendered, limits);
  });
  return {
    output: { kind: "transformed", buffer: encoded.buffer },
    info: {
      width: encoded.width,
      height: encoded.height,
      orientation: orientationOf(encoded.width, encoded.height),
      format: encoded.format,
      mimeType: encoded.mimeType,
      extension: encoded.extension,
      size: encoded.size,
    },
    input: header,
    transform: canonicalTransform(steps),
  };
}
