import { describe, expect, it } from "vitest";
import { buildTransform } from "./build-transform.js";
import type { Layer } from "./layer.js";
import { parseTransform } from "./parse-transform.js";
import type { TransformStep } from "./transform-step.js";

describe("buildTransform with the keys of issue #32", () => {
  it("writes layers and several effects in the canonical form", () => {
    expect(
      buildTransform({
        h: 400,
        w: 400,
        e: ["contrast:20", "brightness:15"],
        layers: [
          {
            source: {
              kind: "text",
              font: "arial",
              size: 24,
              style: "bold",
              align: "center",
              text: "Hello, World/",
            },
            tp: "ne",
            co: "FFD700",
          },
          { source: { kind: "image", path: "logos/logo.svg" }, lw: 300, tp: "south-east", type: "overlay" },
        ],
      }),
    ).toBe(
      "w_400,h_400,c_fill,e_contrast:20,e_brightness:15,l_text:arial_24_bold_center:Hello%2C%20World%2F,tp_north-east,co_ffd700,fl_layer_apply,l_image:logos%2Flogo.svg,lw_300,tp_south-east,fl_layer_apply",
    );
  });

  it("writes the new step keys", () => {
    expect(
      buildTransform({
        w: "auto",
        ps: { x: 10, y: 20 },
        fo: "face",
        z: 1.5,
        dpr: 2,
        q: "auto:best",
        r: "auto",
        o: 50,
        fl: "upscale",
      }),
    ).toBe("w_auto,ps_10,20,fo_face,z_1.5,dpr_2,q_auto:best,r_auto,o_50,fl_upscale");
    expect(buildTransform({ w: 0.5, p: "top-left", e: "improve:indoor" })).toBe(
      "w_0.5,p_tl,e_improve:indoor",
    );
  });

  it("refuses a typed value with the parser's message", () => {
    const text = (value: string): Layer => ({
      source: { kind: "text", font: "arial", size: 12, text: value },
    });
    expect(() => buildTransform({ layers: [text("")] })).toThrow("l_text:arial_12:: text is empty");
    expect(() => buildTransform({ layers: [{ source: { kind: "image", path: "../x.png" } }] })).toThrow(
      "l_image:..%2Fx.png: path must not hold empty, . or .. segments",
    );
    expect(() => buildTransform({ e: ["blur:1", "blur:2"] })).toThrow(
      "e_blur:2: effect blur is repeated in the step",
    );
    expect(() => buildTransform({ layers: Array.from({ length: 9 }, () => text("x")) })).toThrow(
      "a step has at most 8 layers",
    );
    expect(() => buildTransform({ layers: [text("\ud800")] })).toThrow(
      "layer 1 of step 1 needs a source of kind text (with a text) or image (with a path)",
    );
  });

  it("cannot be made to write extra directives, blocks or steps through a value", () => {
    // Text and paths are percent-encoded, so they are never syntax.
    const sneaky = "x,fl_layer_apply,w_5/h_5";
    expect(buildTransform({ layers: [{ source: { kind: "image", path: sneaky } }] })).toBe(
      "l_image:x%2Cfl%5Flayer%5Fapply%2Cw%5F5%2Fh%5F5,fl_layer_apply",
    );
    expect(parseTransform(buildTransform({ layers: [{ source: { kind: "image", path: sneaky } }] }))).toEqual(
      [{ layers: [{ source: { kind: "image", path: sneaky } }] }],
    );
    // Other values are read as one directive each.
    const font = "arial_12:x,fl_layer_apply,w_5,l_text:arial" as "arial";
    expect(() =>
      buildTransform({ layers: [{ source: { kind: "text", font, size: 1, text: "y" } }] }),
    ).toThrow(/: text must write , and \/ as %2C and %2F$/);
    expect(() =>
      buildTransform({ layers: [{ source: { kind: "image", path: "a" }, tp: "north,w_5" as "north" }] }),
    ).toThrow(/^tp_north,w_5: placement must be one of/);
    expect(() => buildTransform({ ps: { x: "1,w_5" as unknown as number, y: 2 } })).toThrow(/^ps_1,w_5,2: /);
  });

  it("rejects keys outside the layer model", () => {
    const layer = { source: { kind: "image", path: "a.png" }, width: 5 } as unknown as Layer;
    expect(() => buildTransform({ layers: [layer] })).toThrow("width_5: unknown layer key width");
  });
});

// Type checks (tsc runs over the test files): a misspelt parameter or value does not compile.
export const typeChecks: TransformStep[] = [
  // @ts-expect-error: no key `width`
  { width: 300 },
  // @ts-expect-error: `w_auto` is width only
  { h: "auto" },
  // @ts-expect-error: not an effect
  { e: "sepia" },
  // @ts-expect-error: not an effect, in a list
  { e: ["grayscale", "blurr:5"] },
  // @ts-expect-error: not a focus subject the renderer knows
  { fo: "car" },
  // @ts-expect-error: fl_layer_apply is not a step flag
  { fl: "layer_apply" },
  // @ts-expect-error: not a quality preset
  { q: "auto:great" },
  // @ts-expect-error: not a rotation mode
  { r: "upright" },
  // @ts-expect-error: a source point is { x, y }
  { ps: { x: 1 } },
  // @ts-expect-error: not a placement
  { layers: [{ source: { kind: "image", path: "a.png" }, tp: "top" }] },
  // @ts-expect-error: not a blend mode
  { layers: [{ source: { kind: "image", path: "a.png" }, bm: "add" }] },
  // @ts-expect-error: not a font
  { layers: [{ source: { kind: "text", font: "comic", size: 12, text: "a" } }] },
  // @ts-expect-error: a text layer needs a size
  { layers: [{ source: { kind: "text", font: "arial", text: "a" } }] },
  // @ts-expect-error: an image layer has a path, not a text
  { layers: [{ source: { kind: "image", text: "a" } }] },
  // @ts-expect-error: no layer key `width`
  { layers: [{ source: { kind: "image", path: "a.png" }, width: 5 }] },
  // Every spelling the grammar reads compiles.
  {
    p: "top-left",
    layers: [{ source: { kind: "image", path: "a.png" }, tp: "ne", ip: "south-west", type: "underlay" }],
  },
];
