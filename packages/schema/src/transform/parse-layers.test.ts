import { describe, expect, it } from "vitest";
import { canonicalizeTransform } from "./canonical-transform.js";
import { MAX_LAYERS } from "./limits.js";
import { parseTransform, safeParseTransform } from "./parse-transform.js";

const messageOf = (input: string): string => {
  const result = safeParseTransform(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return result.error.message;
};

describe("layer blocks", () => {
  it("reads the hosted documentation's text layer, its text decoded", () => {
    expect(
      parseTransform("l_text:arial_24_bold_center:Hello%20World,tp_north-east,fl_layer_apply,w_400,h_400"),
    ).toEqual([
      {
        w: 400,
        h: 400,
        layers: [
          {
            source: {
              kind: "text",
              font: "arial",
              size: 24,
              style: "bold",
              align: "center",
              text: "Hello World",
            },
            tp: "north-east",
          },
        ],
      },
    ]);
  });

  it("reads several layers in written order, and tokens after a block act on the base", () => {
    const [step] = parseTransform(
      "l_text:arial_72_bold:LIMITED%20EDITION,tp_north-west,fl_layer_apply,l_text:arial_44_bold:By%20Autorender,tp_south,fl_layer_apply",
    );
    expect(step?.layers?.map((layer) => layer.source)).toEqual([
      { kind: "text", font: "arial", size: 72, style: "bold", text: "LIMITED EDITION" },
      { kind: "text", font: "arial", size: 44, style: "bold", text: "By Autorender" },
    ]);
    expect(parseTransform("w_100,l_image:logo.svg,fl_layer_apply,e_grayscale")).toEqual([
      { w: 100, e: "grayscale", layers: [{ source: { kind: "image", path: "logo.svg" } }] },
    ]);
  });

  it("reads every layer directive, with l_type inside the block and co_rgb: as a colour", () => {
    expect(
      parseTransform(
        "l_image:logos%2Flogo.svg,l_type:underlay,lw_100,lh_200,lx_-5,ly_7,x_3,y_-4,tp_ne,ip_nw,o_50,bm_multiply,e_blur:2.5,e_grayscale,fl_layer_apply",
      ),
    ).toEqual([
      {
        layers: [
          {
            source: { kind: "image", path: "logos/logo.svg" },
            type: "underlay",
            lw: 100,
            lh: 200,
            lx: -5,
            ly: 7,
            x: 3,
            y: -4,
            tp: "ne",
            ip: "nw",
            o: 50,
            bm: "multiply",
            e: ["blur:2.5", "grayscale"],
          },
        ],
      },
    ]);
    expect(parseTransform("l_text:verdana_32:Sale,co_rgb:FFD700,fl_layer_apply")[0]?.layers?.[0]?.co).toBe(
      "FFD700",
    );
  });

  it("reads the font part: style and align optional, bold_italic as one style", () => {
    const sourceOf = (spec: string) =>
      parseTransform(`l_text:${spec}:x,fl_layer_apply`)[0]?.layers?.[0]?.source;
    expect(sourceOf("helvetica_10")).toEqual({ kind: "text", font: "helvetica", size: 10, text: "x" });
    expect(sourceOf("arial_10_bold_italic_right")).toMatchObject({ style: "bold_italic", align: "right" });
    expect(sourceOf("arial_10_italic")).toMatchObject({ style: "italic" });
    expect(sourceOf("arial_10_left")).toMatchObject({ align: "left" });
  });

  it("decodes ` , / : _ %` and any script, and writes them back in one spelling", () => {
    const text = "Hello, World/ 50% off: a_b — 日本語 שלום 😀";
    const canonical = canonicalizeTransform(`l_text:arial_24:${encodeURIComponent(text)},fl_layer_apply`);
    expect(canonical).toBe(
      "l_text:arial_24:Hello%2C%20World%2F%2050%25%20off%3A%20a%5Fb%20%E2%80%94%20%E6%97%A5%E6%9C%AC%E8%AA%9E%20%D7%A9%D7%9C%D7%95%D7%9D%20%F0%9F%98%80,fl_layer_apply",
    );
    expect(parseTransform(canonical)[0]?.layers?.[0]?.source).toMatchObject({ text });
    // Raw characters that are not syntax, lower-case escapes and a raw `:` in the text: one meaning.
    expect(canonicalizeTransform("l_text:arial_24:a_b:c%2c%e6%97%a5,fl_layer_apply")).toBe(
      "l_text:arial_24:a%5Fb%3Ac%2C%E6%97%A5,fl_layer_apply",
    );
  });

  it.each([
    ["l_text:arial_24:Hi", "l_text:arial_24:Hi: layer is not closed by fl_layer_apply"],
    ["l_text:arial_24:Hi,w_5", "w_5: w is not a layer key (close the layer with fl_layer_apply first)"],
    [
      "l_text:arial_24:Hi,l_image:a.png,fl_layer_apply",
      "l_text:arial_24:Hi: layer is not closed by fl_layer_apply",
    ],
    ["w_5,fl_layer_apply", "fl_layer_apply: closes no layer (a layer starts with l_text: or l_image:)"],
    [
      "l_image:a.png,fl_upscale,fl_layer_apply",
      "fl_upscale: fl is not a layer key (close the layer with fl_layer_apply first)",
    ],
    ["tp_north,w_5", "tp_north: tp is a layer key: write it between l_text:…/l_image:… and fl_layer_apply"],
    [
      "l_type:overlay",
      "l_type:overlay: l is a layer key: write it between l_text:…/l_image:… and fl_layer_apply",
    ],
    ["l_text:x", "l_text:x: a text layer is l_text:{font}_{size}[_{style}][_{align}]:{text}"],
    [
      "l_video:a.mp4,fl_layer_apply",
      "l_video:a.mp4: l is a layer key: write it between l_text:…/l_image:… and fl_layer_apply",
    ],
    ["l_image:a.png,l_image:b.png", "l_image:a.png: layer is not closed by fl_layer_apply"],
    ["l_image:a.png,l_kind:x,fl_layer_apply", "l_kind:x: inside a layer, l_ is only l_type:overlay|underlay"],
    ["l_image:a.png,lw_5,lw_6,fl_layer_apply", "lw_6: key lw is repeated in the layer"],
    ["l_image:a.png,e_blur:1,e_blur:2,fl_layer_apply", "e_blur:2: effect blur is repeated in the layer"],
    ["l_image:a.png,co_ff0000,fl_layer_apply", "co_ff0000: co is the colour of a text layer"],
    [
      "l_text:times_24:Hi,fl_layer_apply",
      "l_text:times_24:Hi: font must be one of arial, helvetica, verdana",
    ],
    ["l_text:arial:Hi,fl_layer_apply", "l_text:arial:Hi: a text layer needs a font size: {font}_{size}"],
    ["l_text:arial_0:Hi,fl_layer_apply", "l_text:arial_0:Hi: font size must be 1..512"],
    ["l_text:arial_513:Hi,fl_layer_apply", "l_text:arial_513:Hi: font size must be 1..512"],
    [
      "l_text:arial_24_underline:Hi,fl_layer_apply",
      "l_text:arial_24_underline:Hi: font part must be {font}_{size}[_{style}][_{align}] with style one of bold, italic, bold_italic and align one of left, center, right",
    ],
    ["l_text:arial_24:,fl_layer_apply", "l_text:arial_24:: text is empty"],
    [
      "l_text:arial_24:%zz,fl_layer_apply",
      "l_text:arial_24:%zz: text has a % that is not followed by two hex digits",
    ],
    [
      "l_text:arial_24:50%,fl_layer_apply",
      "l_text:arial_24:50%: text has a % that is not followed by two hex digits",
    ],
    ["l_text:arial_24:%C3,fl_layer_apply", "l_text:arial_24:%C3: text is not valid UTF-8"],
    ["l_text:arial_24:%C0%AF,fl_layer_apply", "l_text:arial_24:%C0%AF: text is not valid UTF-8"],
    ["l_text:arial_24:%ED%A0%80,fl_layer_apply", "l_text:arial_24:%ED%A0%80: text is not valid UTF-8"],
    ["l_text:arial_24:a%0Ab,fl_layer_apply", "l_text:arial_24:a%0Ab: text must not hold control characters"],
    ["l_text:arial_24:%00,fl_layer_apply", "l_text:arial_24:%00: text must not hold control characters"],
    ["l_image:,fl_layer_apply", "l_image:: an image layer needs a path: l_image:{path}"],
    [
      "l_image:..%2Fsecret.png,fl_layer_apply",
      "l_image:..%2Fsecret.png: path must not hold empty, . or .. segments",
    ],
    [
      "l_image:a%2F..%2F..%2Fb.png,fl_layer_apply",
      "l_image:a%2F..%2F..%2Fb.png: path must not hold empty, . or .. segments",
    ],
    [
      "l_image:a%2F.%2Fb.png,fl_layer_apply",
      "l_image:a%2F.%2Fb.png: path must not hold empty, . or .. segments",
    ],
    [
      "l_image:a%2F%2Fb.png,fl_layer_apply",
      "l_image:a%2F%2Fb.png: path must not hold empty, . or .. segments",
    ],
    [
      "l_image:%2Fetc%2Fpasswd,fl_layer_apply",
      "l_image:%2Fetc%2Fpasswd: path is relative to the workspace (no leading /)",
    ],
    ["l_image:a.png%00.svg,fl_layer_apply", "l_image:a.png%00.svg: path must not hold control characters"],
    ["l_image:a%5C..%5Cb.png,fl_layer_apply", "l_image:a%5C..%5Cb.png: path must not hold \\"],
    [
      "l_image:a.png,tp_middle,fl_layer_apply",
      "tp_middle: placement must be one of center, north, south, east, west, north-west, north-east, south-west, south-east, c, n, s, e, w, nw, ne, sw, se",
    ],
    ["l_image:a.png,lw_0,fl_layer_apply", "lw_0: layer width must be 1..8192"],
    ["l_image:a.png,lx_8193,fl_layer_apply", "lx_8193: layer x must be -8192..8192"],
    ["l_image:a.png,x_1.5,fl_layer_apply", "x_1.5: x offset must be an integer"],
    ["l_image:a.png,o_101,fl_layer_apply", "o_101: opacity must be 0..100"],
    [
      "l_text:arial_9:a,co_red,fl_layer_apply",
      "co_red: colour must be a 6-digit hex colour (co_ff0000 or co_rgb:ff0000)",
    ],
    [
      "l_image:a.png,bm_add,fl_layer_apply",
      "bm_add: blend mode must be one of normal, multiply, screen, overlay, darken, lighten, soft-light, hard-light, difference, exclusion",
    ],
    [
      "l_image:a.png,l_type:above,fl_layer_apply",
      "l_type:above: layer type must be one of overlay, underlay",
    ],
  ])("refuses %j: %j", (input, message) => {
    expect(messageOf(input)).toBe(message);
  });

  it(`refuses a layer beyond ${MAX_LAYERS} when it opens, naming it`, () => {
    const block = (n: number) => `l_image:${n}.png,fl_layer_apply`;
    const blocks = (count: number) => Array.from({ length: count }, (_, n) => block(n)).join(",");
    expect(parseTransform(blocks(MAX_LAYERS))[0]?.layers).toHaveLength(MAX_LAYERS);
    expect(messageOf(blocks(MAX_LAYERS + 1))).toBe(
      `l_image:${MAX_LAYERS}.png: a step has at most ${MAX_LAYERS} layers`,
    );
    // Counted while scanning: the 9th opener is refused before what follows it is read.
    expect(messageOf(`${blocks(MAX_LAYERS)},l_image:x.png,q_nonsense`)).toBe(
      `l_image:x.png: a step has at most ${MAX_LAYERS} layers`,
    );
  });

  it("refuses a text longer than 200 characters, counting characters, not bytes", () => {
    const ok = encodeURIComponent("😀".repeat(200));
    expect(parseTransform(`l_text:arial_9:${ok},fl_layer_apply`)[0]?.layers).toHaveLength(1);
    expect(messageOf(`l_text:arial_9:${"a".repeat(201)},fl_layer_apply`)).toMatch(
      /: text is longer than 200 characters$/,
    );
    expect(messageOf(`l_text:arial_9:${encodeURIComponent("日".repeat(201))},fl_layer_apply`)).toMatch(
      /: text is longer than 200 characters$/,
    );
  });
});
