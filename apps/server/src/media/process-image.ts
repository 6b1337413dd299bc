import { canonicalTransform, type Transformation } from "@trove/schema";
import { encodeImage } from "./encode-image.js";
import { type ImageInput, inputSize } from "./image-input.js";
import { makeThumbnail, type Thumbnail } from "./make-thumbnail.js";
import { type MediaLimits, resolveMediaLimits } from "./media-limits.js";
import { openRasterImage } from "./open-raster-image.js";
import { outputDirectives, resolveOutputFormat } from "./output-format.js";
import { FORMAT_EXTENSIONS, type RasterFormat } from "./raster-format.js";
import { type ImageHeader, type ImageOrientation, orientationOf } from "./read-image-header.js";
import { readTransform } from "./read-transform.js";
import { mapRenderError, runTransform } from "./run-transform.js";
import { decodeError } from "./sharp-error.js";

export interface ProcessImageOptions {
  /** The stored upload: a file path (preferred: libvips reads it itself) or its bytes. */
  input: ImageInput;
  /** The upload's `transform` field, as a string or parsed; absent or a no-op keeps the original. */
  transform?: Transformation | string;
  limits?: Partial<MediaLimits>;
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
  source: ImageHeader;
  thumbnail: Thumbnail;
  /** The canonical transform applied ("" for none): what `transform_string` records. */
  transform: string;
}

/**
 * Store-time processing of an uploaded raster image: header, optional transformation (applied
 * once; `f_auto` means webp here), and the thumbnail, which shows the stored result. The source
 * is decoded once: the thumbnail and the output come from the same final pixels (or, with no
 * transformation, from one decode of the source). Throws MediaError (400) for a non-raster or
 * corrupt file (UNSUPPORTED_MEDIA_TYPE), a bomb or an output over the cap (IMAGE_TOO_LARGE), and
 * a bad transform (INVALID_TRANSFORM).
 */
export async function processImage(options: ProcessImageOptions): Promise<ProcessedImage> {
  const limits = resolveMediaLimits(options.limits);
  const steps = readTransform(options.transform);
  const { image, header } = await openRasterImage(options.input, limits);

  if (steps.length === 0) {
    const thumbnail = await makeThumbnail(image.clone()).catch((error: unknown) => {
      throw decodeError(error, limits);
    });
    return {
      output: { kind: "original" },
      info: {
        width: header.width,
        height: header.height,
        orientation: header.orientation,
        format: header.format,
        mimeType: header.mimeType,
        extension: FORMAT_EXTENSIONS[header.format],
        size: await inputSize(options.input),
      },
      source: header,
      thumbnail,
      transform: "",
    };
  }

  const rendered = await runTransform(image, header, steps, limits);
  const { format, quality } = outputDirectives(steps);
  const outputFormat = resolveOutputFormat(format, header.format, rendered.hasAlpha, () => "webp");
  const [encoded, thumbnail] = await Promise.all([
    encodeImage(rendered.image(), outputFormat, quality),
    makeThumbnail(rendered.image()),
  ]).catch((error: unknown) => {
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
    source: header,
    thumbnail,
    transform: canonicalTransform(steps),
  };
}
