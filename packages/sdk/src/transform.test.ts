import { describe, expect, it } from "vitest";
import { fileListRow } from "../test/support/fixtures.js";
import { ASSETS_URL, testClient } from "../test/support/msw-server.js";
import { buildTransform, type Layer, parseTransform, type TransformStep } from "./transform.js";

describe("@trove/sdk/transform", () => {
  const logo: Layer = {
    source: { kind: "image", path: "brand/logo.svg" },
    lw: 120,
    tp: "se",
    x: -10,
    y: -10,
  };
  const caption: Layer = {
    source: { kind: "text", font: "arial", size: 24, style: "bold", text: "Hello, World/" },
    co: "FFFFFF",
    tp: "north",
  };

  it("builds layers and several effects in the canonical form", () => {
    expect(buildTransform({ w: 800, e: ["brightness:15", "saturation:10"], layers: [caption, logo] })).toBe(
      "w_800,e_saturation:10,e_brightness:15,l_text:arial_24_bold:Hello%2C%20World%2F,tp_north,co_ffffff,fl_layer_apply,l_image:brand%2Flogo.svg,lw_120,x_-10,y_-10,tp_south-east,fl_layer_apply",
    );
  });

  it("puts the canonical layer text in a delivery URL with its escapes intact", () => {
    const url = testClient().url(fileListRow, { w: 800, layers: [caption] });
    expect(url).toBe(
      `${ASSETS_URL}/ws1/w_800,l_text:arial_24_bold:Hello%2C%20World%2F,tp_north,co_ffffff,fl_layer_apply/photos/cat.jpg`,
    );
    const segment = new URL(url).pathname.split("/").at(-3) ?? "";
    expect(parseTransform(segment)[0]?.layers?.[0]?.source).toMatchObject({ text: "Hello, World/" });
  });
});

// Type checks (tsc runs over the test files): a typo in a parameter does not compile.
export const typeChecks: TransformStep[] = [
  // @ts-expect-error: `lw` belongs to a layer, not to the step
  { lw: 100 },
  // @ts-expect-error: not a placement
  { layers: [{ source: { kind: "image", path: "a.png" }, tp: "northeast" }] },
  // @ts-expect-error: not an effect
  { e: ["brightness:10", "sepia"] },
  // @ts-expect-error: zoom is a number
  { z: "2x" },
  {
    w: "auto",
    z: 1.5,
    dpr: 2,
    fl: "upscale",
    fo: "face",
    ps: { x: 10, y: 20 },
    q: "auto:best",
    r: "portrait",
  },
];
