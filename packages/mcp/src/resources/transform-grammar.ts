import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  COLOUR_NAMES,
  CROP_MODES,
  FLIPS,
  GRAVITIES,
  IMAGE_FORMATS,
  MAX_DIMENSION,
  MAX_NAMED_TRANSFORM_LENGTH,
  MAX_ROTATION,
  MAX_TRANSFORM_LENGTH,
  MAX_TRANSFORM_STEPS,
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

Keys and values are case-sensitive, a key appears at most once per step, integers are plain decimal (no \`+\`, no leading zeros).

| key | value | meaning |
| --- | --- | --- |
| \`w\`, \`h\` | integer 1..${MAX_DIMENSION} | width, height in pixels; one alone keeps the aspect ratio |
| \`ar\` | \`W:H\` (e.g. \`16:9\`) | aspect ratio; needs exactly one of \`w\`, \`h\` in the step |
| \`c\` | ${list(CROP_MODES)} | crop mode; \`fill\` when both \`w\` and \`h\` are given |
| \`p\` | ${list(GRAVITIES)} | what \`fill\` and \`crop\` keep |
| \`f\` | ${list(IMAGE_FORMATS)} | output format (\`auto\`: the best the browser accepts) |
| \`q\` | integer 1..100, or \`auto\` | quality |
| \`r\` | integer -${MAX_ROTATION}..${MAX_ROTATION} | rotation in degrees |
| \`flip\` | ${list(FLIPS)} | mirror horizontally, vertically, both |
| \`bg\` | a 6-digit hex without \`#\`, or a colour name | background for \`pad\`, rotation, flattening |
| \`br\` | integer 0..${MAX_DIMENSION}, or \`max\` | rounded corners; \`max\` gives a circle or ellipse |
| \`e\` | \`grayscale\`, \`invert\`, \`blur:N\` (1..100), \`sharpen\`, \`sharpen:N\` (1..100), \`brightness:N\`, \`contrast:N\`, \`saturation:N\` (-100..100) | one effect per step |
| \`t\` | a name, 1..${MAX_NAMED_TRANSFORM_LENGTH} of \`a-z 0-9 _ -\` | a named transform of the workspace; alone in its step |

Colour names: ${COLOUR_NAMES.join(", ")}.

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
