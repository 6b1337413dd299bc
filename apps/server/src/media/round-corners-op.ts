import sharp from "sharp";
import { type ImageOp, sameSize } from "./image-op.js";
import { roundCornersMask } from "./round-corners-mask.js";

/**
 * `br`: rounded corners (a radius in pixels, at most half the shorter side) or, with `max`, an
 * ellipse touching all four sides. libvips multiplies the frame's alpha by an antialiased mask
 * (`dest-in` keeps the frame's colour and scales its alpha by the mask's), so the pixel work runs
 * off the event loop; building the mask costs JavaScript O(width + height) (round-corners-mask.ts).
 * No SVG is drawn, so the process needs no SVG loader at all (see block-unused-codecs.ts). While
 * the op runs the mask takes 3 bytes per pixel: the one-band mask and the grey-and-alpha image
 * made of it. A frame without alpha gets one from the composite itself, with no pass of its own.
 */
export function roundCornersOp(radius: number | "max"): ImageOp {
  return {
    fusable: false,
    outputSize: sameSize,
    apply: async (image, { width, height }) => {
      const mask = roundCornersMask(width, height, radius);
      // composite reads a one-band image as opaque grey; joined to itself the mask is its alpha.
      // Both are the frame's size, already checked against maxOutputPixels.
      const raw = { width, height, channels: 1 } as const;
      const alpha = await sharp(mask, { raw, limitInputPixels: false })
        .joinChannel(mask, { raw, limitInputPixels: false })
        .raw()
        .toBuffer();
      return image.composite([
        { input: alpha, raw: { width, height, channels: 2 }, blend: "dest-in", limitInputPixels: false },
      ]);
    },
  };
}
