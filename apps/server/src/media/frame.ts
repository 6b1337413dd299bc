import sharp, { type Sharp } from "sharp";
import type { MediaLimits } from "./media-limits.js";

export interface Size {
  width: number;
  height: number;
}

/**
 * Decoded pixels between two operations: 8-bit sRGB, with or without alpha, not premultiplied.
 * Keeping every frame in one layout means no operation has to care about greyscale or CMYK
 * sources, 16-bit PNGs or a greyscale frame meeting a coloured background.
 */
export interface Frame extends Size {
  data: Buffer;
  channels: 3 | 4;
}

/** A frame's shape, all an operation needs to know to plan itself. */
export type FrameShape = Omit<Frame, "data">;

/**
 * A pipeline over a frame. The frame's size was checked against maxOutputPixels when it was
 * made, so the input pixel limit does not apply to it.
 */
export function frameImage(frame: Frame, limits: MediaLimits): Sharp {
  return sharp(frame.data, {
    raw: { width: frame.width, height: frame.height, channels: frame.channels },
    limitInputPixels: false,
  }).timeout({ seconds: limits.timeoutSeconds });
}

/** Runs a pipeline into a new frame. sharp applies one operation of each kind per pipeline in
 * its own fixed order, so the transform runner gives each operation its own pipeline. */
export async function materialize(image: Sharp): Promise<Frame> {
  const { data, info } = await image
    .toColourspace("srgb")
    .raw({ depth: "uchar" })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3 && info.channels !== 4) {
    throw new Error(`expected an sRGB frame with 3 or 4 channels, got ${info.channels}`);
  }
  return { data, width: info.width, height: info.height, channels: info.channels };
}
