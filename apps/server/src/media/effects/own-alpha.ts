import sharp, { type Sharp } from "sharp";
import type { FrameShape } from "../frame.js";

/**
 * Runs `colour` for a frame and gives the frame its own alpha back, byte for byte. For the
 * operations libvips would otherwise apply to alpha too: a blur softens it (sharp blurs
 * premultiplied), and a blend of the frame with a copy of itself recomputes it. A frame without
 * alpha goes straight through. With alpha, `colour` still sees the whole frame (a blur then
 * weighs colours by their alpha, so a cut-out's invisible pixels never bleed into its edge); its
 * result's alpha is dropped and the frame's is joined back. The two extra passes (the alpha out,
 * the join) copy bytes; the costly work stays in `colour`'s pipeline, which carries the frame
 * pipeline's timeout (it is a clone of it).
 */
export async function withOwnAlpha(
  image: Sharp,
  input: FrameShape,
  colour: (image: Sharp) => Sharp | Promise<Sharp>,
): Promise<Sharp> {
  if (input.channels === 3) return colour(image);
  const { width, height } = input;
  const [alpha, rgb] = await Promise.all([
    image.clone().extractChannel("alpha").raw().toBuffer(),
    (await colour(image.clone())).removeAlpha().raw().toBuffer(),
  ]);
  return sharp(rgb, { raw: { width, height, channels: 3 }, limitInputPixels: false }).joinChannel(alpha, {
    raw: { width, height, channels: 1 },
    limitInputPixels: false,
  });
}

/**
 * The frame's colour bands alone as a pipeline: the frame itself when it has no alpha, else a
 * copy without it (one pass). For operations that must not see alpha at all, such as a blend
 * of the frame with a copy of itself.
 */
export async function colourBands(image: Sharp, input: FrameShape): Promise<Sharp> {
  if (input.channels === 3) return image;
  const rgb = await image.clone().removeAlpha().raw().toBuffer();
  return sharp(rgb, {
    raw: { width: input.width, height: input.height, channels: 3 },
    limitInputPixels: false,
  });
}
