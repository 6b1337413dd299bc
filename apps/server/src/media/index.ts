/**
 * # Media pipeline (sharp)
 *
 * Identifies uploaded content, reads image dimensions, applies transformation strings (grammar:
 * `@trove/schema`, docs/TRANSFORMS.md) at store time and at delivery (thumbnails are
 * delivery-time variants). Routes call it; it knows nothing of HTTP, storage or the database.
 *
 * ## Upload (store time)
 *
 * ```ts
 * // 1. While streaming the upload to storage, keep its first SNIFF_HEAD_BYTES.
 * const sniffed = await sniffContent(head, fileName); // { mimeType, format, extension, isRasterImage }
 * // 2. Raster images only (jpeg, png, webp, gif, avif, tiff, heic); everything else is stored as bytes.
 * if (sniffed.isRasterImage) {
 *   const { output, info, transform } = await processImage({ input: bytesOrPath, transform: body.transform, limits });
 *   // output.kind === "original": store the upload as is (only its header was read).
 *   //   "transformed": store output.buffer instead (and hash those bytes);
 *   //   info.{format,mimeType,extension,size} describe it.
 *   // info.width/height/orientation → the file record; transform → transform_string ("" = none).
 * }
 * ```
 * `probeImage(input)` reads only the header (dimensions, orientation) of anything;
 * non-images give `{ isImage: false, width: null, height: null, orientation: null }` without
 * being decoded.
 *
 * ## Delivery
 *
 * ```ts
 * const canonical = canonicalizeTransform(segment);              // @trove/schema; 400 on error
 * const key = variantCacheKey(file.storageKey, canonical, negotiateAutoFormat(req.headers.accept));
 * // cache miss:
 * const variant = await renderVariant({ input: stream, transform: canonical, accept: req.headers.accept });
 * // reply with variant.body, Content-Type variant.mimeType, and `Vary: Accept` when variant.vary.
 * ```
 * `f_auto` is avif if Accept lists image/avif, else webp if image/webp, else jpeg (png when the
 * result has alpha); wildcards do not count. The cache key holds the canonical transform and,
 * for f_auto only, that choice; every f_auto response (hit or miss: `negotiatesFormat(canonical)`)
 * must send `Vary: Accept`, or a shared cache would hand AVIF to a browser that asked for JPEG.
 * A canonical transform of "" means none: serve the stored file itself.
 *
 * ## Errors
 *
 * Refusals throw `MediaError` with `status` and `code` from the shared ERROR_CODES:
 * IMAGE_TOO_LARGE (400: header over maxInputPixels, i.e. a decompression bomb; any intermediate
 * or final image over maxOutputPixels, or larger than the input and over maxUpscalePixels; a
 * pipeline over timeoutSeconds), UNSUPPORTED_MEDIA_TYPE
 * (400: not a raster image, or corrupt/truncated), INVALID_TRANSFORM (400: grammar errors, the
 * parser's message naming the directive), FILE_TOO_LARGE (413: a delivery stream over
 * maxInputBytes). Messages are safe to show. Anything else thrown is a bug: a 500.
 * An upload route may catch UNSUPPORTED_MEDIA_TYPE from processImage and store a corrupt
 * image as plain bytes instead, if it prefers accepting it.
 *
 * ## Decisions
 *
 * - **The bytes decide the type.** The client's MIME type is never read; its file name only
 *   supplies the extension of content that has no signature (sanitised: ASCII alphanumerics,
 *   at most 16, lowercase, else `bin`).
 * - **SVG is never rasterised** by libvips, and a stored SVG is never transformed. It is sniffed
 *   (`image/svg+xml`, isRasterImage false) and stored as bytes. (An SVG named by an image layer is
 *   drawn by resvg after a scan that refuses every reference outside the file: ./layers/.)
 *   Handing user SVG to libvips (librsvg) or any XML parser invites XXE and SSRF
 *   (external entities, `<image href="http://169.254.169.254/...">`), and SVG can carry script.
 *   Delivery must serve SVG (and any text) with `X-Content-Type-Options: nosniff` and
 *   `Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; sandbox`. XML, HTML
 *   and scripts are labelled text/plain for the same reason. As a second line, every libvips
 *   loader and saver but the raster ones is blocked process-wide (`blockUnusedCodecs`, an
 *   allowlist, so SVG, PDF, ImageMagick, FITS, the VIPS format and whatever else the libvips
 *   build has are all out): content that got past the sniffing finds no loader, a 400. openImage
 *   applies it before the first client image reaches libvips, so embedders and tests get it
 *   too, and the server applies it at start. It is process-wide: an embedder's own sharp calls
 *   are limited to the same codecs. Rounded corners are a raw mask, not an SVG overlay.
 * - **Limits, not file size, bound memory.** The header's declared pixels are checked before
 *   decoding (sharp `limitInputPixels`, default 100 MP); every image the pipeline makes is
 *   checked against `maxOutputPixels` (default 40 MP) before it is allocated, so a transform
 *   asking for too much is a 400, never an OOM. Frames are raw 8-bit sRGB(A): at most about
 *   2 × 4 B × maxOutputPixels per image in flight. `failOn: "error"` refuses corrupt data.
 * - **Work is bound by what was uploaded.** An image with more pixels than its input (an
 *   upscale, a pad, a rotated canvas; intermediate or final) may not exceed `maxUpscalePixels`
 *   (default 4096 × 4096 = 16.8 MP): delivery renders public images for anyone, and a 10×10
 *   image asked for w_6000,h_6000 would otherwise be 36 MP of work for free. Images no larger
 *   than the input are bound by maxOutputPixels only, so downscaling is never affected.
 * - **No pixel work on the event loop.** Every operation is a libvips pipeline (ImageOp); there
 *   is no kind of operation that loops over pixels in JavaScript, because delivery renders for
 *   anyone and such a loop stalls every other request. Rounded corners build an antialiased mask
 *   whose JavaScript cost is O(width + height) (only edge pixels are computed; runs are
 *   Buffer.fill) and libvips multiplies the alpha by it (`dest-in`).
 * - **One decode, EXIF first.** Auto-orientation happens before everything; the first resize or
 *   crop runs inside the decoding pipeline (libvips shrink-on-load), later operations each get a
 *   pipeline over the previous raw frame, because sharp reorders operations within one pipeline.
 * - **Within a step** the order is: resize/crop, effect, rounded corners, flip, rotation,
 *   layers (in written order, ./layers/), flatten onto `bg`. Steps sequence everything else.
 *   `f` and `q` apply to the output, last wins. Without `f` the input format is kept (TIFF
 *   becomes png/jpeg); `f_auto` is webp at store time. JPEG output lays transparency on white.
 * - **No transform, no re-encode, no decode.** processImage keeps the upload's bytes (EXIF
 *   included) and reports dimensions as displayed, from the header alone: an upload costs no
 *   pixel work, and corrupt pixel data behind a sound header is found when a variant (the
 *   thumbnail, say) is first rendered, a 400 then. Transformed outputs are stripped of metadata.
 * - **Headers of images in memory are read from their bytes.** JPEG, PNG, WebP and GIF have
 *   small parsers of our own (parse-*-header.ts; 0.02 ms instead of libvips' 0.6 ms for a
 *   100 KiB JPEG, most of an upload's CPU time). Each parser reads only the format the magic
 *   bytes named and vouches only for well-formed files libvips also accepts, with the same
 *   width, height, orientation, alpha, frames and pixel-limit refusal (held to it by agreement
 *   tests over a generated corpus, every truncation and thousands of corrupted variants);
 *   anything else (an odd EXIF block, animated WebP, truncation, AVIF, TIFF, files on disk) is
 *   read by libvips as before, so refusals keep their codes and messages. image-size was
 *   considered and left out: it ignores EXIF's IFD offset, reads past the end of the array it
 *   is given, and has neither alpha nor frames, so it could not agree with libvips.
 * - **Multi-frame images** (animated GIF/WebP, multi-page TIFF) are read from their first frame:
 *   a transformed animation (and its thumbnail) is a still.
 *
 * Runs on Node 20.19+: file-type 21 is ESM-only, which the CJS build reaches via require(esm).
 */

export type { EncodedImage } from "./encode-image.js";
export { fileNameExtension, MAX_EXTENSION_LENGTH } from "./file-name-extension.js";
export type { ImageInput } from "./image-input.js";
export { isMediaError, MediaError, type MediaErrorCode } from "./media-error.js";
export { DEFAULT_MEDIA_LIMITS, type MediaLimits, resolveMediaLimits } from "./media-limits.js";
export { type AutoFormatChoice, negotiateAutoFormat } from "./negotiate-format.js";
export { type ImageProbe, probeImage } from "./probe-image.js";
export {
  type ProcessedImage,
  type ProcessedInfo,
  type ProcessedOutput,
  type ProcessImageOptions,
  processImage,
} from "./process-image.js";
export {
  FORMAT_EXTENSIONS,
  FORMAT_MIME_TYPES,
  isRasterFormat,
  OUTPUT_FORMATS,
  type OutputFormat,
  RASTER_FORMATS,
  type RasterFormat,
} from "./raster-format.js";
export type { ImageHeader, ImageOrientation } from "./read-image-header.js";
export type { MediaInput } from "./read-media-input.js";
export { type RenderedVariant, type RenderVariantOptions, renderVariant } from "./render-variant.js";
export {
  SNIFF_HEAD_BYTES,
  type SniffedContent,
  type SniffedOther,
  type SniffedRasterImage,
  sniffContent,
} from "./sniff-content.js";
export {
  negotiatesFormat,
  VARIANT_RENDERER_VERSION,
  variantCacheKey,
  variantCachePrefix,
} from "./variant-cache-key.js";
