import {
  type ImageLayerSource,
  type LayerSource,
  TEXT_ALIGNS,
  TEXT_FONTS,
  TEXT_STYLES,
  type TextAlign,
  type TextFont,
  type TextLayerSource,
  type TextStyle,
} from "./layer.js";
import { MAX_FONT_SIZE, MAX_LAYER_PATH_LENGTH, MAX_TEXT_LENGTH } from "./limits.js";
import { hasControlCharacter, percentDecode, percentEncode } from "./percent-encoding.js";
import { readInteger } from "./read-integer.js";
import { accept, refuse, type ValueResult } from "./value-result.js";

// A character takes at most 12 characters encoded (4 UTF-8 bytes, each `%XX`): anything longer
// is refused before it is decoded.
const MAX_ENCODED_TEXT = MAX_TEXT_LENGTH * 12;
const MAX_ENCODED_PATH = MAX_LAYER_PATH_LENGTH * 12;

/** Whether a directive opens a layer block (`l_text:…`, `l_image:…`). */
export function isLayerOpener(raw: string): boolean {
  return raw.startsWith("l_text:") || raw.startsWith("l_image:");
}

/** Reads the source of a layer block from its opening directive. */
export function readLayerSource(raw: string): ValueResult<LayerSource> {
  if (raw.startsWith("l_text:")) return readTextSource(raw.slice("l_text:".length));
  return readImageSource(raw.slice("l_image:".length));
}

/**
 * `{font}_{size}[_{style}][_{align}]:{text}`. The first `:` ends the font part; everything after
 * it is the text, so a raw `:` in the text is read as text (canonically it is `%3A`).
 */
function readTextSource(value: string): ValueResult<TextLayerSource> {
  const colon = value.indexOf(":");
  if (colon < 0) return refuse("a text layer is l_text:{font}_{size}[_{style}][_{align}]:{text}");
  const spec = readFontSpec(value.slice(0, colon));
  if (!spec.ok) return spec;
  const encoded = value.slice(colon + 1);
  if (encoded === "") return refuse("text is empty");
  if (encoded.length > MAX_ENCODED_TEXT) return refuse(`text is longer than ${MAX_TEXT_LENGTH} characters`);
  const text = percentDecode(encoded, "text");
  if (!text.ok) return text;
  const checked = checkText(text.value);
  if (!checked.ok) return checked;
  return accept({ kind: "text", ...spec.value, text: text.value });
}

/** Rules of a decoded text, shared by the parser and the builder's checks. */
export function checkText(text: string): ValueResult<string> {
  if (text === "") return refuse("text is empty");
  let characters = 0;
  for (const _ of text) characters++;
  if (characters > MAX_TEXT_LENGTH) return refuse(`text is longer than ${MAX_TEXT_LENGTH} characters`);
  if (hasControlCharacter(text)) return refuse("text must not hold control characters");
  return accept(text);
}

type FontSpec = Pick<TextLayerSource, "font" | "size" | "style" | "align">;

const FONT_SPEC_REASON = `font part must be {font}_{size}[_{style}][_{align}] with style one of ${TEXT_STYLES.join(", ")} and align one of ${TEXT_ALIGNS.join(", ")}`;

function readFontSpec(text: string): ValueResult<FontSpec> {
  const parts = text.split("_");
  if (parts.length > 5) return refuse(FONT_SPEC_REASON);
  const [font, size, ...rest] = parts as [string, string | undefined, ...string[]];
  if (!(TEXT_FONTS as readonly string[]).includes(font)) {
    return refuse(`font must be one of ${TEXT_FONTS.join(", ")}`);
  }
  if (size === undefined) return refuse("a text layer needs a font size: {font}_{size}");
  const read = readInteger(size, 1, MAX_FONT_SIZE, {
    kind: "font size must be an integer",
    range: `font size must be 1..${MAX_FONT_SIZE}`,
  });
  if (!read.ok) return read;
  const spec: FontSpec = { font: font as TextFont, size: read.value };
  let next = 0;
  if (rest[0] === "bold" && rest[1] === "italic") {
    spec.style = "bold_italic";
    next = 2;
  } else if (rest[0] === "bold" || rest[0] === "italic") {
    spec.style = rest[0] as TextStyle;
    next = 1;
  }
  if (next < rest.length && (TEXT_ALIGNS as readonly string[]).includes(rest[next] as string)) {
    spec.align = rest[next] as TextAlign;
    next++;
  }
  return next === rest.length ? accept(spec) : refuse(FONT_SPEC_REASON);
}

function readImageSource(encoded: string): ValueResult<ImageLayerSource> {
  if (encoded === "") return refuse("an image layer needs a path: l_image:{path}");
  if (encoded.length > MAX_ENCODED_PATH)
    return refuse(`path is longer than ${MAX_LAYER_PATH_LENGTH} characters`);
  const path = percentDecode(encoded, "path");
  if (!path.ok) return path;
  const checked = checkLayerPath(path.value);
  return checked.ok ? accept({ kind: "image", path: checked.value }) : checked;
}

/**
 * A layer's file path, relative to the workspace: no control character (NUL included), no `\`,
 * no leading `/`, no empty, `.` or `..` segment. The renderer still looks the path up as a file
 * of the URL's own workspace; these rules keep a path from meaning anything else on the way.
 */
export function checkLayerPath(path: string): ValueResult<string> {
  if (path === "") return refuse("an image layer needs a path: l_image:{path}");
  if (path.length > MAX_LAYER_PATH_LENGTH)
    return refuse(`path is longer than ${MAX_LAYER_PATH_LENGTH} characters`);
  if (hasControlCharacter(path)) return refuse("path must not hold control characters");
  if (path.includes("\\")) return refuse("path must not hold \\");
  if (path.startsWith("/")) return refuse("path is relative to the workspace (no leading /)");
  for (const segment of path.split("/")) {
    if (segment === "" || segment === "." || segment === "..") {
      return refuse("path must not hold empty, . or .. segments");
    }
  }
  return accept(path);
}

/** The opening directive of a layer block, canonically encoded. */
export function formatLayerSource(source: LayerSource): string {
  if (source.kind === "image") return `l_image:${percentEncode(String(source.path))}`;
  const spec = [source.font, source.size, source.style, source.align].filter((part) => part !== undefined);
  return `l_text:${spec.join("_")}:${percentEncode(String(source.text))}`;
}
