import { canonicalTransform, type Transformation, type TransformStep } from "@trove/schema";
import type { Sharp } from "sharp";
import { findFaceFocus, wantsFaces } from "./faces/face-focus.js";
import { type Frame, type FrameShape, frameImage, materialize, type Size } from "./frame.js";
import type { ImageOp } from "./image-op.js";
import type { LayerSources } from "./layers/layer-sources.js";
import { MediaError } from "./media-error.js";
import type { MediaLimits } from "./media-limits.js";
import { planStep } from "./plan-step.js";
import type { ImageHeader } from "./read-image-header.js";
import { decodeError, timeoutError } from "./sharp-error.js";

/** The transformed image, not yet encoded. */
export interface RenderedImage {
  /** A pipeline over the final pixels, for the one output (the file or the variant). */
  image(): Sharp;
  width: number;
  height: number;
  hasAlpha: boolean;
  /**
   * True when image() decodes the input itself (a transform of only f and q, or one fused
   * operation): its errors are then the input's fault. See mapRenderError.
   */
  fromInput: boolean;
}

/**
 * Applies the steps to the image `open()` opens (a fresh pipeline from openImage per call,
 * whose header is `header`). Each
 * operation gets its own pipeline over the previous frame, because sharp applies the
 * operations of one pipeline in its own fixed order, not in call order. The first operation, if
 * it is a resize or extract, runs inside the decoding pipeline (shrink-on-load), so the input
 * is decoded once and never held whole when it is reduced. Every frame, intermediate or final,
 * is checked against maxOutputPixels, and if it has more pixels than the input against
 * maxUpscalePixels, before it is made. A step that asks for faces (p_face, fo_face) is
 * planned once they are found in its input (faces/face-focus.ts).
 */
export async function runTransform(
  open: () => Sharp,
  header: ImageHeader,
  steps: Transformation,
  limits: MediaLimits,
  /** Where image layers' files come from (absent: image layers are refused). */
  layerSources?: LayerSources,
): Promise<RenderedImage> {
  let frame: Frame | undefined;
  let shape: FrameShape = { width: header.width, height: header.height, channels: header.hasAlpha ? 4 : 3 };
  const single = singleFusableOp(steps, shape, header);
  if (single) {
    const size = single.outputSize(shape);
    checkOutputSize(size, `step 1 (${canonicalTransform(steps)})`, header, limits);
    const image = await single.apply(open(), shape);
    return { image: once(image.toColourspace("srgb")), ...sizeOf(size), hasAlpha: false, fromInput: true };
  }
  for (const [index, step] of steps.entries()) {
    const label = `step ${index + 1} (${canonicalTransform([step])})`;
    const current = frame;
    const source = current === undefined ? open : () => frameImage(current, limits);
    const focus = await findFaceFocus(step, source, shape, limits);
    for (const op of planStep(step, shape, focus, { limits, sources: layerSources })) {
      if (op.skip?.(shape)) continue;
      checkOutputSize(op.outputSize(shape), label, header, limits);
      if (frame === undefined && op.fusable) {
        frame = await decode(await op.apply(open(), shape), limits);
      } else {
        frame ??= await decode(open(), limits);
        frame = await runOp(op, frame, limits);
      }
      shape = { width: frame.width, height: frame.height, channels: frame.channels };
    }
  }
  if (frame === undefined) {
    checkOutputSize(header, "the image", header, limits);
    return { image: open, ...sizeOf(header), hasAlpha: header.hasAlpha, fromInput: true };
  }
  const final = frame;
  return {
    image: () => frameImage(final, limits),
    ...sizeOf(final),
    hasAlpha: final.channels === 4,
    fromInput: false,
  };
}

/**
 * The one operation of a one-step transform of a JPEG, when it can run in the decoding pipeline
 * (a resize or a crop: `w_800`, the usual store-time transform of a photo). It then goes from
 * the decoder straight to the encoder, without the raw frame in between (about 2 ms of a 12 MP
 * photo's 40). Only for a JPEG (no alpha, 8 bits: the output has the channels and depth a frame
 * would have) and an op that adds no padding (which could be transparent, and sharp flattens
 * before it resizes).
 */
function singleFusableOp(steps: Transformation, shape: FrameShape, header: ImageHeader): ImageOp | undefined {
  // A step that asks for faces is planned after detection, in the loop.
  if (header.format !== "jpeg" || steps.length !== 1 || wantsFaces(steps[0] as TransformStep))
    return undefined;
  const ops = planStep(steps[0] as TransformStep, shape).filter((op) => !op.skip?.(shape));
  const [op] = ops;
  return ops.length === 1 && op?.fusable && !op.pads ? op : undefined;
}

/** A pipeline that can be handed out once: a sharp pipeline runs once. */
function once(image: Sharp): () => Sharp {
  let used = false;
  return () => {
    if (used) throw new Error("runTransform: this rendered image was already encoded");
    used = true;
    return image;
  };
}

/** Errors of an encode or thumbnail of a RenderedImage, classified like runTransform's own. */
export function mapRenderError(error: unknown, rendered: RenderedImage, limits: MediaLimits): unknown {
  return rendered.fromInput ? decodeError(error, limits) : (timeoutError(error, limits) ?? error);
}

function checkOutputSize({ width, height }: Size, what: string, input: Size, limits: MediaLimits): void {
  const pixels = width * height;
  const produce = `${what} would produce ${width}×${height} = ${pixels} pixels`;
  if (pixels > limits.maxOutputPixels) {
    throw new MediaError(
      "IMAGE_TOO_LARGE",
      `${produce}, more than the ${limits.maxOutputPixels}-pixel output limit`,
    );
  }
  // Compared with the input, not the previous frame: w_10/w_4000 of a 9 MP photo makes no
  // more pixels than the photo has, while r_45 of an 8000×10 strip (32 MP) does.
  if (pixels > input.width * input.height && pixels > limits.maxUpscalePixels) {
    throw new MediaError(
      "IMAGE_TOO_LARGE",
      `${produce} from a ${input.width}×${input.height} image, more than the ${limits.maxUpscalePixels}-pixel limit for images larger than their source`,
    );
  }
}

/** The stage that reads the client's bytes: its failures are the input's fault (400). */
async function decode(image: Sharp, limits: MediaLimits): Promise<Frame> {
  try {
    return await materialize(image);
  } catch (error) {
    throw decodeError(error, limits);
  }
}

/** Later stages work on frames we made; only a timeout is the request's fault there. */
async function runOp(op: ImageOp, frame: Frame, limits: MediaLimits): Promise<Frame> {
  try {
    return await materialize(await op.apply(frameImage(frame, limits), frame));
  } catch (error) {
    throw timeoutError(error, limits) ?? error;
  }
}

const sizeOf = ({ width, height }: Size): Size => ({ width, height });
