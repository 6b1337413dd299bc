import { readFile, stat } from "node:fs/promises";
import { decoderInput, type ImageInput } from "../image-input.js";
import { MediaError } from "../media-error.js";
import type { MediaLimits } from "../media-limits.js";
import { inputPixelLimitError } from "../sharp-error.js";
import { type HeifHeader, parseHeifHeader } from "./parse-heif-header.js";

/**
 * Most tiles a grid image may have. A phone's 12 MP photo is 48 tiles of 512×512 and a 48 MP one
 * 192; each tile is a separate HEVC stream the decoder sets up, so a file declaring thousands of
 * tiny ones costs far more than its pixels say.
 */
export const MAX_GRID_TILES = 1024;

/** The bytes of a HEIF input, for the header parser and the decoder (which needs them all). */
export async function readHeifBytes(input: ImageInput, limits: MediaLimits): Promise<Buffer> {
  if (Buffer.isBuffer(input)) return input;
  const path = decoderInput(input);
  const { size } = await stat(path);
  if (size > limits.maxInputBytes) {
    throw new MediaError("FILE_TOO_LARGE", `image is larger than the ${limits.maxInputBytes}-byte limit`);
  }
  return readFile(path);
}

/**
 * The header of a HEIF image, checked against the limits before anything decodes it: the primary
 * image's declared size (`ispe`) against maxInputPixels, and for a grid, its tile count against
 * MAX_GRID_TILES and the pixels of all its tiles (which the decoder allocates besides the grid)
 * against maxInputPixels too. A bomb is IMAGE_TOO_LARGE; a malformed container is
 * UNSUPPORTED_MEDIA_TYPE (see parseHeifHeader).
 */
export async function readHeifHeader(input: ImageInput, limits: MediaLimits): Promise<HeifHeader> {
  const header = parseHeifHeader(await readHeifBytes(input, limits));
  if (header.codedPixels > limits.maxInputPixels) throw inputPixelLimitError(limits);
  if (header.grid !== undefined) {
    if (header.grid.tiles > MAX_GRID_TILES) {
      throw new MediaError(
        "IMAGE_TOO_LARGE",
        `image is a grid of ${header.grid.tiles} tiles, more than the ${MAX_GRID_TILES} allowed`,
      );
    }
    if (header.grid.tilePixels > limits.maxInputPixels) throw inputPixelLimitError(limits);
  }
  return header;
}
