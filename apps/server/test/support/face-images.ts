import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { type DetectedFace, detectFaces } from "../../src/media/faces/detect-faces.js";

/**
 * src/media/faces/fixtures/astronaut-left.jpg (README there): 1024×512, a public-domain NASA
 * portrait on the left half, a plain grey (58, 62, 70) right half. The face as the detector finds
 * it, in source pixels (measured once; a detector's box moves by a few pixels with the input's
 * size, so tests allow slack).
 */
export const FACE_FIXTURE_PATH = fileURLToPath(
  new URL("../../src/media/faces/fixtures/astronaut-left.jpg", import.meta.url),
);
export const FACE_FIXTURE_SIZE = { width: 1024, height: 512 };
export const FIXTURE_FACE = { left: 150, top: 72, width: 140, height: 120 };
export const FIXTURE_GREY = { r: 58, g: 62, b: 70 };

/** The faces the detector finds in an encoded image (boxes in its pixels). */
export async function facesIn(encoded: Uint8Array): Promise<DetectedFace[]> {
  const { data, info } = await sharp(encoded).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return detectFaces({ data, width: info.width, height: info.height }, 30_000);
}

/**
 * A `width`×`height` JPEG of the fixture's grey with the portrait (512 px, scaled by `scale`) in
 * its top-left corner: a large photo whose face a centred crop misses.
 */
export async function faceOnCanvas(width: number, height: number, scale: number): Promise<Buffer> {
  const side = Math.round(512 * scale);
  const portrait = await sharp(await readFile(FACE_FIXTURE_PATH))
    .extract({ left: 0, top: 0, width: 512, height: 512 })
    .resize(side, side)
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: FIXTURE_GREY } })
    .composite([{ input: portrait, left: 0, top: 0 }])
    .jpeg({ quality: 80 })
    .toBuffer();
}
