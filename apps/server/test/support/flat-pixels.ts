import sharp from "sharp";

/** An encoded image's pixels laid on white, to read colours and count them by region. */
export interface FlatPixels {
  width: number;
  height: number;
  /** RGB of one pixel. */
  at(x: number, y: number): number[];
  /** How many pixels of the box [x0, x1) × [y0, y1) pass `test`. */
  count(x0: number, y0: number, x1: number, y1: number, test: (pixel: number[]) => boolean): number;
}

/** Decodes `image` (any format sharp reads) flattened on white; the layer tests (server and e2e) read it. */
export async function flatPixels(image: Buffer): Promise<FlatPixels> {
  const { data, info } = await sharp(image)
    .flatten({ background: "#ffffff" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [
    ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
  ];
  return {
    width: info.width,
    height: info.height,
    at,
    count: (x0, y0, x1, y1, test) => {
      let n = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (test(at(x, y))) n++;
      return n;
    },
  };
}

/** Each channel within `tolerance` of the expected colour. */
export const near = (actual: number[], expected: number[], tolerance = 12) =>
  actual.every((value, index) => Math.abs(value - (expected[index] as number)) <= tolerance);
