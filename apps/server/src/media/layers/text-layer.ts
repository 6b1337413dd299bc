import type { TextLayerSource } from "@trove/schema";
import sharp from "sharp";
import { type Frame, materialize } from "../frame.js";
import type { MediaLimits } from "../media-limits.js";
import { timeoutError } from "../sharp-error.js";
import { isolateFontconfig, pangoFontDescription } from "./bundled-fonts.js";
import { checkDrawable } from "./font-coverage.js";
import { checkLayerSize } from "./layer-size.js";

/** The size the text is first laid out at to learn how large it will be. */
const PROBE_SIZE = 8;

/**
 * Draws a text layer with Pango (libvips' text), in `colour` (6 hex digits), at the source's
 * size times `scale` (the step's dpr). The text is drawn as text: libvips reads Pango markup, so
 * every character markup gives a meaning to is escaped, and `<span>` in a URL is drawn as the
 * six characters it is. Only bundled fonts are seen (./bundled-fonts.ts), and text they cannot
 * draw is refused (./font-coverage.ts).
 *
 * Cost is bounded before anything large is allocated: the text is first laid out at 8 px (a
 * cheap bitmap) and its size at the real font size is extrapolated with a margin for hinting;
 * a layer that would exceed the layer limits (./layer-size.ts) is refused without being drawn.
 */
export async function renderTextLayer(
  source: TextLayerSource,
  colour: string,
  scale: number,
  limits: MediaLimits,
): Promise<Frame> {
  isolateFontconfig();
  checkDrawable(source.text);
  const size = Math.max(1, Math.round(source.size * scale));
  const text = `<span foreground="#${colour}">${escapeMarkup(source.text)}</span>`;
  const draw = (fontSize: number) =>
    sharp({
      text: {
        text,
        font: pangoFontDescription(source.font, source.style, fontSize),
        align: source.align === "center" ? "centre" : (source.align ?? "left"),
        rgba: true,
        dpi: 72,
      },
      limitInputPixels: false,
    }).timeout({ seconds: limits.timeoutSeconds });
  try {
    const probe = await draw(PROBE_SIZE).metadata();
    const factor = size / PROBE_SIZE;
    const estimate = {
      width: Math.ceil((probe.width ?? 1) * factor * 1.25) + size,
      height: Math.ceil((probe.height ?? 1) * factor * 1.25) + size,
    };
    checkLayerSize(estimate, undefined, limits);
    return await materialize(draw(size).ensureAlpha());
  } catch (error) {
    throw timeoutError(error, limits) ?? error;
  }
}

/** Pango markup is XML: these five are all it gives a meaning to in text. */
export function escapeMarkup(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
