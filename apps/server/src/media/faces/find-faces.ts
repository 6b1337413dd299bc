import type { Sharp } from "sharp";
import type { Size } from "../frame.js";
import type { MediaLimits } from "../media-limits.js";
import { decodeError } from "../sharp-error.js";
import type { Box } from "./box.js";
import { DETECTOR_INPUT_SIDE, detectFaces } from "./detect-faces.js";

/**
 * The faces in `image` (a pipeline over the source or a frame, of `input`'s size), as boxes in
 * its pixels. libvips makes the small copy (shrinking a JPEG while decoding it), so the detector
 * never sees more than DETECTOR_INPUT_SIDE² pixels whatever the source's size; the source's own pixel
 * limit was checked before this is reached, so a bomb never gets here.
 */
export async function findFaces(image: Sharp, input: Size, limits: MediaLimits): Promise<Box[]> {
  let small: { data: Buffer; info: { width: number; height: number } };
  try {
    small = await image
      .resize({
        width: DETECTOR_INPUT_SIDE,
        height: DETECTOR_INPUT_SIDE,
        fit: "inside",
        withoutEnlargement: true,
      })
      .removeAlpha()
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw decodeError(error, limits);
  }
  const { width, height } = small.info;
  const faces = await detectFaces({ data: small.data, width, height }, limits.timeoutSeconds * 1000);
  const sx = input.width / width;
  const sy = input.height / height;
  return faces.map((face) => ({
    left: face.left * sx,
    top: face.top * sy,
    width: face.width * sx,
    height: face.height * sy,
  }));
}
