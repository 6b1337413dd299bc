import { type Effect, effectsOf } from "@trove/schema";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { effectOps } from "../effect-op.js";
import { type Frame, frameImage, materialize } from "../frame.js";
import { DEFAULT_MEDIA_LIMITS } from "../media-limits.js";
import { opacityOp } from "./opacity-op.js";

/**
 * Every effect on small synthetic frames, checked on pixels: the direction and size of its
 * change as its comment and docs/TRANSFORMS.md state them. The frames go through the ops as the
 * transform runner runs them (one pipeline per op, skip honoured).
 */

async function render(frame: Frame, ...effects: Effect[]): Promise<Frame> {
  let current = frame;
  for (const op of effectOps(effectsOf({ e: effects }))) {
    if (op.skip?.(current)) continue;
    current = await materialize(await op.apply(frameImage(current, DEFAULT_MEDIA_LIMITS), current));
  }
  return current;
}

/** A frame of one colour. */
function patch(rgb: readonly number[], width = 8, height = 8): Frame {
  const channels = rgb.length as 3 | 4;
  const data = Buffer.alloc(width * height * channels);
  for (let i = 0; i < width * height; i++) data.set(rgb, i * channels);
  return { data, width, height, channels };
}

/** Grey columns from `from` to `to` (one value per column), 4 rows. */
function ramp(from: number, to: number, width = to - from + 1): Frame {
  const data = Buffer.alloc(width * 4 * 3);
  for (let y = 0; y < 4; y++) {
    for (let x = 0; x < width; x++)
      data.fill(
        Math.round(from + ((to - from) * x) / (width - 1)),
        (y * width + x) * 3,
        (y * width + x) * 3 + 3,
      );
  }
  return { data, width, height: 4, channels: 3 };
}

/** Left half `low`, right half `high`. */
function edge(width = 200, height = 8, low = 0, high = 255): Frame {
  const data = Buffer.alloc(width * height * 3, low);
  for (let y = 0; y < height; y++) data.fill(high, (y * width + width / 2) * 3, (y + 1) * width * 3);
  return { data, width, height, channels: 3 };
}

const pixel = (frame: Frame, x: number, y = 0): number[] => {
  const at = (y * frame.width + x) * frame.channels;
  return [...frame.data.subarray(at, at + frame.channels)];
};
const greyAt = (frame: Frame, x: number) => pixel(frame, x)[0] as number;
const row = (frame: Frame) => Array.from({ length: frame.width }, (_, x) => greyAt(frame, x));
const range = (values: number[]) => Math.max(...values) - Math.min(...values);
/** libvips rounds some 8-bit results and truncates others: one level either way. */
const near = (actual: number | undefined, expected: number) =>
  expect(Math.abs((actual ?? Number.NaN) - expected)).toBeLessThanOrEqual(1);

describe("tonal effects", () => {
  it("brightness scales lightness both ways", async () => {
    const [up] = pixel(await render(patch([100, 100, 100]), "brightness:50"), 0);
    const [down] = pixel(await render(patch([100, 100, 100]), "brightness:-50"), 0);
    expect(up).toBeGreaterThan(130);
    expect(down).toBeLessThan(70);
  });

  it("contrast stretches about mid-grey; -100 is flat grey", async () => {
    const more = await render(ramp(50, 200, 4), "contrast:50");
    expect(greyAt(more, 0)).toBe(11); // 128 + 1.5·(50 - 128)
    expect(greyAt(more, 3)).toBe(236);
    expect(new Set(row(await render(ramp(0, 255, 16), "contrast:-100")))).toEqual(new Set([128]));
  });

  it("exposure multiplies by 2^(N/110) and keeps black", async () => {
    const out = await render(ramp(0, 100, 2), "exposure:50");
    expect(greyAt(out, 0)).toBe(0);
    near(greyAt(out, 1), 100 * 2 ** (50 / 110));
    near(greyAt(await render(patch([200, 200, 200]), "exposure:-100"), 0), 200 * 2 ** (-100 / 110));
  });

  it("gamma moves mid-tones and keeps black and white", async () => {
    const lighter = await render(ramp(0, 255, 3), "gamma:100");
    expect([greyAt(lighter, 0), greyAt(lighter, 2)]).toEqual([0, 255]);
    near(greyAt(lighter, 1), 255 * Math.sqrt(128 / 255));
    const darker = await render(ramp(0, 255, 3), "gamma:-50");
    near(greyAt(darker, 1), 255 * (128 / 255) ** 2);
  });

  it("highlights moves only values above mid-grey", async () => {
    const up = await render(ramp(64, 192, 3), "highlights:100");
    expect(row(up)).toEqual([64, 128, 224]);
    const down = await render(ramp(64, 255, 2), "highlights:-100");
    expect(greyAt(down, 0)).toBe(64);
    near(greyAt(down, 1), 191.5);
  });

  it("shadows moves only values below mid-grey", async () => {
    expect(row(await render(ramp(0, 192, 2), "shadows:100"))).toEqual([64, 192]);
    expect(row(await render(ramp(64, 192, 2), "shadows:-100"))).toEqual([32, 192]);
  });
});

describe("colour effects", () => {
  it("saturation:-100 and grayscale leave grey of the same lightness", async () => {
    for (const effect of ["saturation:-100", "grayscale"] as const) {
      const [r, g, b] = pixel(await render(patch([200, 60, 40]), effect), 0);
      expect(r).toBe(g);
      expect(g).toBe(b);
    }
    const [r, g] = pixel(await render(patch([200, 100, 100]), "saturation:80"), 0);
    expect((r as number) - (g as number)).toBeGreaterThan(100);
  });

  it("hue:180 turns red cyan-ish", async () => {
    const [r, g, b] = pixel(await render(patch([220, 30, 30]), "hue:180"), 0) as [number, number, number];
    expect(g).toBeGreaterThan(r);
    expect(b).toBeGreaterThan(r);
  });

  it("temperature raises red over blue with gains, warmth with offsets, tint lowers green", async () => {
    expect(pixel(await render(patch([200, 200, 200]), "temperature:50"), 0)).toEqual([220, 200, 180]);
    expect(pixel(await render(patch([200, 200, 200]), "temperature:-50"), 0)).toEqual([180, 200, 220]);
    expect(pixel(await render(patch([0, 0, 0]), "temperature:100"), 0)).toEqual([0, 0, 0]);
    expect(pixel(await render(patch([0, 0, 0]), "warmth:50"), 0)).toEqual([12, 3, 0]);
    expect(pixel(await render(patch([100, 100, 100]), "warmth:-100"), 0)).toEqual([76, 94, 124]);
    expect(pixel(await render(patch([200, 200, 200]), "tint:50"), 0)).toEqual([200, 180, 200]);
    expect(pixel(await render(patch([200, 200, 200]), "tint:-50"), 0)).toEqual([200, 220, 200]);
  });

  it("blackwhite thresholds at N% of white", async () => {
    const out = row(await render(ramp(0, 255), "blackwhite:50"));
    expect(new Set(out)).toEqual(new Set([0, 255]));
    expect(out.indexOf(255)).toBeGreaterThan(118);
    expect(out.indexOf(255)).toBeLessThan(138);
    expect(new Set(row(await render(ramp(0, 255), "blackwhite:0")))).toEqual(new Set([255]));
  });

  it("invert gives 255 - v", async () => {
    expect(pixel(await render(patch([10, 100, 250]), "invert"), 0)).toEqual([245, 155, 5]);
  });

  it("fade lowers contrast and lifts black", async () => {
    const out = await render(ramp(0, 255, 2), "fade:60");
    near(greyAt(out, 0), 45.9); // 0·0.7 + 45.9
    near(greyAt(out, 1), 224.4); // 255·0.7 + 45.9
  });
});

describe("detail effects", () => {
  /** Columns that are neither black nor white: how wide the edge is. */
  const edgeWidth = (frame: Frame) => row(frame).filter((v) => v > 5 && v < 250).length;

  it("blur widens the edge with its sigma; 0.3 barely, 50 a lot", async () => {
    const soft = edgeWidth(await render(edge(), "blur:0.3"));
    const wide = edgeWidth(await render(edge(), "blur:50"));
    const direct = edgeWidth(await render(edge(), "blur:10"));
    expect(soft).toBeLessThanOrEqual(2);
    expect(direct).toBeGreaterThan(20);
    expect(wide).toBeGreaterThan(100);
  });

  it("blur:1000 leaves an image close to flat, at the image's size", async () => {
    const out = await render(edge(400, 40), "blur:1000");
    expect(out).toMatchObject({ width: 400, height: 40, channels: 3 });
    // A true sigma-1000 blur of this edge (edges copied outwards) spans 107..148.
    expect(range(row(out))).toBeLessThan(45);
    expect(range(row(out))).toBeLessThan(range(row(await render(edge(400, 40), "blur:100"))));
    expect(greyAt(out, 0)).toBeLessThanOrEqual(greyAt(out, 399));
    // The shrunk path agrees with libvips' own blur where both are cheap.
    const direct = row(await render(edge(), "blur:16"));
    const shrunk = row(await render(edge(), "blur:16.5"));
    expect(Math.max(...direct.map((v, x) => Math.abs(v - (shrunk[x] as number))))).toBeLessThan(12);
  });

  it("sharpen overshoots at an edge, more with a larger amount; the flag is sharpen:100", async () => {
    const blurred = await render(edge(200, 8, 64, 192), "blur:2");
    const overshoot = (frame: Frame) =>
      64 - Math.min(...row(frame).slice(0, 100)) + Math.max(...row(frame).slice(100)) - 192;
    expect(overshoot(blurred)).toBe(0);
    const flag = await render(blurred, "sharpen");
    expect(flag.data.equals((await render(blurred, "sharpen:100")).data)).toBe(true);
    expect(overshoot(flag)).toBeGreaterThan(0);
    expect(overshoot(await render(blurred, "sharpen:1000"))).toBeGreaterThan(overshoot(flag));
  });

  it("unsharp_mask steepens a soft edge with its amount", async () => {
    const blurred = await render(edge(), "blur:3");
    const steep = (frame: Frame) => greyAt(frame, 101) - greyAt(frame, 98);
    expect(steep(await render(blurred, "unsharp_mask:100"))).toBeGreaterThan(steep(blurred));
    expect(steep(await render(blurred, "unsharp_mask:500"))).toBeGreaterThan(
      steep(await render(blurred, "unsharp_mask:100")),
    );
  });

  it("structure raises local contrast of a texture", async () => {
    const data = Buffer.alloc(64 * 64 * 3);
    for (let i = 0; i < 64 * 64; i++)
      data.fill((((i % 64) >> 3) + ((i >> 6) >> 3)) % 2 ? 140 : 110, i * 3, i * 3 + 3);
    const texture: Frame = { data, width: 64, height: 64, channels: 3 };
    const spread = (frame: Frame) => {
      const values = [...frame.data].filter((_, i) => i % 3 === 0);
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length);
    };
    expect(spread(await render(texture, "structure:100"))).toBeGreaterThan(spread(texture) * 1.3);
  });
});

describe("automatic effects", () => {
  it("normalize stretches a low-contrast image to the full range", async () => {
    const out = row(await render(ramp(100, 150), "normalize"));
    expect(Math.min(...out)).toBe(0);
    expect(Math.max(...out)).toBe(255);
  });

  it("auto_enhance stretches too", async () => {
    expect(range(row(await render(ramp(100, 150), "auto_enhance")))).toBeGreaterThan(200);
  });

  it("improve:indoor is cooler than improve:outdoor, which is more saturated", async () => {
    const photo = patch([200, 140, 90], 8, 8);
    photo.data.fill(20, 0, 3); // a dark pixel, so the stretch has a range to work on
    const indoor = pixel(await render(photo, "improve:indoor"), 4) as [number, number, number];
    const outdoor = pixel(await render(photo, "improve:outdoor"), 4) as [number, number, number];
    const plain = pixel(await render(photo, "improve"), 4) as [number, number, number];
    expect(indoor[2] / indoor[0]).toBeGreaterThan(plain[2] / plain[0]);
    expect(outdoor[0] - outdoor[2]).toBeGreaterThan(plain[0] - plain[2]);
    expect(indoor).not.toEqual(outdoor);
  });
});

describe("vignette", () => {
  it("darkens the corners and leaves the centre", async () => {
    const out = await render(patch([200, 200, 200], 100, 60), "vignette:50");
    expect(pixel(out, 50, 30)).toEqual([200, 200, 200]);
    const [corner] = pixel(out, 0, 0) as [number];
    expect(corner).toBeLessThan(200 * (1 - 0.3));
    expect(corner).toBeGreaterThan(200 * (1 - 0.45));
    const [side] = pixel(out, 50, 0) as [number];
    expect(side).toBeGreaterThan(corner);
    expect(side).toBeLessThan(200);
    expect(out.channels).toBe(3);
  });
});

describe("alpha", () => {
  /** Colour gradient across, alpha gradient down. */
  function cutout(): Frame {
    const [width, height] = [40, 20];
    const data = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++)
        data.set([x * 6, 200 - x * 4, 90, Math.round((y * 255) / 19)], (y * width + x) * 4);
    }
    return { data, width, height, channels: 4 };
  }
  const alphaOf = (frame: Frame) => [...frame.data].filter((_, i) => i % 4 === 3);

  it("blur weighs colours by alpha: a cut-out's transparent black does not darken its edge", async () => {
    const [width, height] = [40, 4];
    const data = Buffer.alloc(width * height * 4); // transparent black
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width / 2; x++) data.set([255, 0, 0, 255], (y * width + x) * 4);
    }
    const out = await render({ data, width, height, channels: 4 }, "blur:5");
    expect(pixel(out, 19)).toEqual([255, 0, 0, 255]);
  });

  it.each<Effect>([
    "brightness:30",
    "contrast:40",
    "exposure:-30",
    "gamma:50",
    "highlights:50",
    "shadows:-50",
    "saturation:50",
    "hue:90",
    "temperature:40",
    "warmth:40",
    "tint:40",
    "grayscale",
    "blackwhite:50",
    "invert",
    "fade:50",
    "sharpen:500",
    "unsharp_mask:300",
    "structure:80",
    "blur:3",
    "blur:200",
    "auto_enhance",
    "normalize",
    "improve:outdoor",
    "vignette:100",
  ])("%s keeps the alpha byte for byte", async (effect) => {
    const input = cutout();
    const out = await render(input, effect);
    expect(out.channels).toBe(4);
    expect(alphaOf(out)).toEqual(alphaOf(input));
    expect(out.data.equals(input.data)).toBe(false);
  });
});

describe("tiny frames", () => {
  const every: Effect[] = [
    "improve:indoor",
    "unsharp_mask:2000",
    "saturation:100",
    "contrast:100",
    "brightness:100",
    "gamma:150",
    "sharpen:2000",
    "grayscale",
    "blackwhite:100",
    "auto_enhance",
    "blur:1000",
    "exposure:100",
    "fade:100",
    "highlights:100",
    "hue:180",
    "invert",
    "normalize",
    "shadows:-100",
    "structure:100",
    "temperature:100",
    "tint:100",
    "vignette:100",
    "warmth:100",
  ];

  it.each([
    [1, 1, 3],
    [1, 300, 4],
    [300, 1, 3],
  ] as const)(
    "every effect at its extreme renders a %i×%i frame (%i channels) at its size",
    async (width, height, channels) => {
      const input = patch(channels === 3 ? [90, 140, 200] : [90, 140, 200, 120], width, height);
      for (const effect of every) {
        const out = await render(input, effect);
        expect(out, effect).toMatchObject({ width, height, channels });
      }
      const all = await render(input, ...every);
      expect(all).toMatchObject({ width, height, channels });
    },
  );
});

describe("several effects in a step", () => {
  it("apply in the canonical order whatever the written order", async () => {
    const input = ramp(0, 255);
    const a = await render(input, "brightness:15", "contrast:20", "saturation:10");
    const b = await render(input, "saturation:10", "contrast:20", "brightness:15");
    expect(a.data.equals(b.data)).toBe(true);
  });

  it("fuse neighbouring linear stages when no clipping can come between them", () => {
    // exposure:-20 (a gain below 1) then fade: one pass.
    expect(effectOps(effectsOf({ e: ["exposure:-20", "fade:30"] }))).toHaveLength(1);
    // temperature:30 raises red past 255 before tint: two passes.
    expect(effectOps(effectsOf({ e: ["temperature:30", "tint:10"] }))).toHaveLength(2);
    // grayscale then blackwhite's grey: one modulate, then the threshold.
    expect(effectOps(effectsOf({ e: ["blackwhite:40", "grayscale"] }))).toHaveLength(2);
  });

  it("a fused pass gives the image of the passes it replaces", async () => {
    const input = ramp(0, 255);
    const fused = await render(input, "exposure:-20", "fade:30");
    const apart = await render(await render(input, "exposure:-20"), "fade:30");
    const diff = [...fused.data].map((v, i) => Math.abs(v - (apart.data[i] as number)));
    expect(Math.max(...diff)).toBeLessThanOrEqual(1); // one rounding fewer
  });
});

describe("o_ (base opacity)", () => {
  const run = async (frame: Frame, opacity: number) => {
    const op = opacityOp(opacity);
    return op.skip?.(frame)
      ? frame
      : materialize(await op.apply(frameImage(frame, DEFAULT_MEDIA_LIMITS), frame));
  };

  it("multiplies the alpha and keeps the colour", async () => {
    expect(pixel(await run(patch([10, 20, 30, 200]), 50), 0)).toEqual([10, 20, 30, 100]);
    expect(pixel(await run(patch([10, 20, 30, 200]), 0), 0)).toEqual([10, 20, 30, 0]);
  });

  it("gives a frame without alpha one", async () => {
    const out = await run(patch([10, 20, 30]), 50);
    expect(out.channels).toBe(4);
    expect(pixel(out, 0).slice(0, 3)).toEqual([10, 20, 30]);
    near(pixel(out, 0)[3], 127.5);
  });

  it("o_100 changes nothing", async () => {
    expect(opacityOp(100).skip?.(patch([1, 2, 3]))).toBe(true);
  });

  it("a JPEG encoder lays it on white", async () => {
    const faded = await run(patch([255, 0, 0], 16, 16), 50);
    const jpeg = await sharp(faded.data, { raw: { width: 16, height: 16, channels: 4 } })
      .flatten({ background: "#ffffff" })
      .raw()
      .toBuffer();
    expect(jpeg[0]).toBe(255);
    near(jpeg[1], 128);
    near(jpeg[2], 128);
  });
});
