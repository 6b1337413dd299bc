import { type Frame, materialize } from "../frame.js";
import type { MediaLimits } from "../media-limits.js";
import { openRasterImage } from "../open-raster-image.js";
import { decodeError } from "../sharp-error.js";
import { checkLayerSize, type LayerBox, layerSize } from "./layer-size.js";

/**
 * Decodes a raster image layer through the same door as any source (openRasterImage: the magic
 * bytes choose the decoder, the input pixel limit is checked on the header, HEIC goes through
 * libheif, EXIF orientation is applied), sized to lw/lh inside the decoding pipeline, so a large
 * logo is shrunk while it is decoded.
 */
export async function renderRasterLayer(bytes: Buffer, box: LayerBox, limits: MediaLimits): Promise<Frame> {
  const { open, header } = await openRasterImage(bytes, limits);
  const size = layerSize(header, box);
  checkLayerSize(size, header, limits);
  const image = open();
  const sized =
    size.width === header.width && size.height === header.height
      ? image
      : image.resize(size.width, size.height, { fit: "fill" });
  try {
    return await materialize(sized.ensureAlpha());
  } catch (error) {
    throw decodeError(error, limits);
  }
}
