import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  COLOUR_NAMES,
  CROP_MODES,
  EFFECT_NAMES,
  FLIPS,
  FOCUS_SUBJECTS,
  GRAVITIES,
  IMAGE_FORMATS,
  MAX_DIMENSION,
  MAX_LAYERS,
  MAX_NAMED_TRANSFORM_LENGTH,
  MAX_ROTATION,
  MAX_TRANSFORM_LENGTH,
  MAX_TRANSFORM_STEPS,
  QUALITY_PRESETS,
  ROTATION_MODES,
} from "@trove/schema";

export const TRANSFORM_GRAMMAR_URI = "trove://transform-grammar";

const list = (values: readonly string[]) => values.map((value) => `\`${value}\``).join(", ");

/**
 * The grammar for a model, short: docs/TRANSFORMS.md is the full reference. Every value list and
 * limit is read from @trove/schema, the code that parses the strings, so the text cannot drift
 * from what the server accepts.
 */
export function transformGrammarText(): string {
  return `# Trove transformation strings

A delivery URL is \`{assets}/{workspace_no}/{transform}/{path}\`. The transform is steps joined by \`/\`, applied left to right; a step is directives joined by \`,\`; a directive is \`key_value\`. Example: \`w_800,h_600,c_fill,f_webp/e_grayscale\`.

Keys and values are case-sensitive, a key appears at most once per step (except \`e\`), integers are plain decimal (no \`+\`, no leading zeros).

| key | value | meaning |
| --- | --- | --- |
| \`w\`, \`h\` | integer 1..${MAX_DIMENSION}, or a fraction 0.01..0.99 of the source; \`w_auto\` picks the width per browser | width, height; one alone keeps the aspect ratio; no enlargement without \`fl_upscale\` |
| \`ar\` | \`W:H\` (e.g. \`16:9\`) | aspect ratio; needs \`w\` or \`h\` in the step (ignored with both) |
| \`c\` | ${list(CROP_MODES)} | crop mode; \`fill\` when both \`w\` and \`h\` are given |
| \`p\` | ${list(GRAVITIES)} | what \`fill\` and \`crop\` keep |
| \`ps\`, \`fo\`, \`z\`, \`dpr\`, \`o\`, \`fl\` | \`ps_center\` or a source point \`ps_10,20\`; ${list(FOCUS_SUBJECTS.map((s) => `fo_${s}`))}; zoom 1..5; dpr 0.1..10; opacity 0..100; \`fl_upscale\` | position, focus, zoom, pixel ratio, base opacity, allow enlargement |
| \`f\` | ${list(IMAGE_FORMATS)} | output format (\`auto\`: the best the browser accepts) |
| \`q\` | integer 1..100, or ${list(QUALITY_PRESETS)} | quality |
| \`r\` | integer -${MAX_ROTATION}..${MAX_ROTATION}, or ${list(ROTATION_MODES)} | rotation in degrees, or a mode |
| \`flip\` | ${list(FLIPS)} | mirror horizontally, vertically, both |
| \`bg\` | a 6-digit hex without \`#\`, or a colour name | background for \`pad\`, rotation, flattening |
| \`br\` | integer 0..${MAX_DIMENSION}, or \`max\` | rounded corners; \`max\` gives a circle or ellipse |
| \`e\` | ${list(EFFECT_NAMES)}, most with \`:N\` (e.g. \`brightness:15\`, \`blur:0.3\`..\`blur:1000\`) | effects; several per step (\`e_brightness:15,e_contrast:20\`), each once |
| \`t\` | a name, 1..${MAX_NAMED_TRANSFORM_LENGTH} of \`a-z 0-9 _ -\` | a named transform of the workspace; \`t_card,q_90\` is \`t_card/q_90\` (the definition, then the rest) |

Colour names: ${COLOUR_NAMES.join(", ")}.

Layers: \`l_text:arial_24_bold:Hello%20World,tp_north-east,co_ffffff,fl_layer_apply\` or \`l_image:logos%2Flogo.png,lw_120,tp_south-east,fl_layer_apply\` (a file of the same workspace), at most ${MAX_LAYERS} per step; text and paths percent-encoded (\`/\` as \`%2F\`). Inside a block: \`l_type:underlay\`, \`lw\`, \`lh\`, \`lx\`, \`ly\`, \`x\`, \`y\`, \`tp\`/\`ip\` (north, south-east, … or n, se, …), \`co\`, \`o\`, \`bm\`, \`e\`. docs/TRANSFORMS.md has every value.

Only raster images (JPEG, PNG, WebP, GIF, AVIF, TIFF) take a transform. A workspace in strict mode serves only named transforms (\`t_…\`) and signed URLs.

Limits: at most ${MAX_TRANSFORM_STEPS} steps and ${MAX_TRANSFORM_LENGTH} characters.

Common recipes: thumbnail \`w_300,h_300,c_fill,f_webp\`; fit in a box without cropping \`w_1200,h_1200,c_limit\`; avatar circle \`w_256,h_256,c_fill,p_attention,br_max,f_png\`; smaller JPEG \`w_1600,f_jpg,q_75\`.

The tool delivery_url checks a string with this grammar and builds the URL; private files need signed_url, which takes the same transform.`;
}

export function registerTransformGrammar(server: McpServer): void {
  server.registerResource(
    "transform-grammar",
    TRANSFORM_GRAMMAR_URI,
    {
      title: "Transformation grammar",
      description: "How to write the transformation of a delivery URL (resize, crop, format, effects).",
      mimeType: "text/markdown",
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: transformGrammarText() }] }),
  );
}
