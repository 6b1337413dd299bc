import { type Effect, splitEffect } from "@trove/schema";
import type { FrameShape } from "./frame.js";
import { type ImageOp, sameSize } from "./image-op.js";

/**
 * `e`: the grammar's amounts mapped onto sharp's parameters. Amounts of -100..100 are a
 * percentage change (brightness:-100 is black, saturation:-100 is grey); blur and sharpen
 * amounts 1..100 scale the Gaussian sigma. None of them touches the alpha channel.
 */
export function effectOp(effect: Effect): ImageOp {
  const { name, amount } = splitEffect(effect);
  const op = (apply: ImageOp["apply"]): ImageOp => ({
    fusable: false,
    outputSize: sameSize,
    apply,
  });
  switch (name) {
    case "grayscale":
      // Not sharp's greyscale(), which makes a one-band image and drops alpha: zero chroma
      // gives the same lightness while the frame stays sRGB with its alpha.
      return op((image) => image.modulate({ saturation: 0 }));
    case "invert":
      return op((image) => image.negate({ alpha: false }));
    case "blur":
      // 1 → sigma 0.3 (sharp's minimum), 100 → sigma 25.
      return op((image) => image.blur(Math.max(0.3, (amount ?? 1) / 4)));
    case "sharpen":
      // No amount: sharp's fast mild sharpen. 1..100 → sigma 0.55..5.5.
      return op((image) =>
        amount === undefined ? image.sharpen() : image.sharpen({ sigma: 0.5 + amount / 20 }),
      );
    case "brightness":
      return op((image) => image.modulate({ brightness: 1 + (amount ?? 0) / 100 }));
    case "saturation":
      return op((image) => image.modulate({ saturation: 1 + (amount ?? 0) / 100 }));
    case "contrast":
      return op((image, input) => contrast(image, input, 1 + (amount ?? 0) / 100));
    default:
      // The effects issue #32 adds are rendered by its effects work; until then they change nothing.
      return op((image) => image);
  }
}

/** A linear stretch around mid-grey; per channel, so alpha is left as it is. */
function contrast(image: Parameters<ImageOp["apply"]>[0], input: FrameShape, slope: number) {
  const offset = 128 * (1 - slope);
  const a = [slope, slope, slope];
  const b = [offset, offset, offset];
  if (input.channels === 4) {
    a.push(1);
    b.push(0);
  }
  return image.linear(a, b);
}
