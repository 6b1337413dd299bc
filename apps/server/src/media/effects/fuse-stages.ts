import type { ImageOp } from "../image-op.js";
import { sameSize } from "../image-op.js";
import type { EffectStage, Rgb } from "./effect-stage.js";

type Linear = Extract<EffectStage, { kind: "linear" }>;
type Modulate = Extract<EffectStage, { kind: "modulate" }>;

/**
 * The stages of a step's effects as image operations, one libvips pass each, after fusing each
 * run of stages that compose exactly: `a₂(a₁v + b₁) + b₂` is one linear, and LCh modulations
 * multiply and add. Each pass rounds to 8 bits and clips to 0..255, so two stages fuse only when
 * the first cannot leave that range (a gain above 1 clips the highlights the next stage would
 * otherwise bring back) and, for modulate, cannot leave the sRGB gamut (a chroma gain or a hue
 * turn can); otherwise they stay two passes and the image is the one the effect order defines.
 */
export function fuseStages(stages: readonly EffectStage[]): ImageOp[] {
  const fused: EffectStage[] = [];
  for (const stage of stages) {
    const last = fused.at(-1);
    if (last?.kind === "linear" && stage.kind === "linear" && staysInRange(last)) {
      fused[fused.length - 1] = composeLinear(last, stage);
    } else if (last?.kind === "modulate" && stage.kind === "modulate" && staysInGamut(last)) {
      fused[fused.length - 1] = composeModulate(last, stage);
    } else {
      fused.push(stage);
    }
  }
  return fused.map(stageOp).filter((op) => op !== undefined);
}

const bands = [0, 1, 2] as const;
const perBand = (f: (band: 0 | 1 | 2) => number): Rgb => [f(0), f(1), f(2)];

function staysInRange({ a, b }: Linear): boolean {
  return bands.every((i) => {
    const [low, high] = [b[i], a[i] * 255 + b[i]].sort((x, y) => x - y) as [number, number];
    return low >= 0 && high <= 255;
  });
}

function composeLinear(first: Linear, second: Linear): Linear {
  return {
    kind: "linear",
    a: perBand((i) => second.a[i] * first.a[i]),
    b: perBand((i) => second.a[i] * first.b[i] + second.b[i]),
  };
}

const staysInGamut = ({ brightness, saturation, hue }: Modulate) =>
  brightness <= 1 && saturation <= 1 && hue === 0;

function composeModulate(first: Modulate, second: Modulate): Modulate {
  return {
    kind: "modulate",
    brightness: first.brightness * second.brightness,
    saturation: first.saturation * second.saturation,
    hue: second.hue,
  };
}

function stageOp(stage: EffectStage): ImageOp | undefined {
  switch (stage.kind) {
    case "op":
      return stage.op;
    case "linear":
      return isIdentity(stage) ? undefined : linearOp(stage);
    case "modulate": {
      const { brightness, saturation, hue } = stage;
      if (brightness === 1 && saturation === 1 && hue === 0) return undefined;
      return colourOp((image) => image.modulate({ brightness, saturation, hue }));
    }
  }
}

const isIdentity = ({ a, b }: Linear) => bands.every((i) => a[i] === 1 && b[i] === 0);

/** Three coefficients on a frame with alpha: sharp applies them to the colour bands only. */
const linearOp = ({ a, b }: Linear): ImageOp => colourOp((image) => image.linear([...a], [...b]));

/** An op that keeps the frame's size and alpha: sharp's modulate and three-band linear do. */
export const colourOp = (apply: ImageOp["apply"]): ImageOp => ({
  fusable: false,
  outputSize: sameSize,
  apply,
});
