/** The part of fontkit (which ships no types) that font-coverage.ts reads. */
declare module "fontkit" {
  interface Font {
    /** Every code point the font's cmap maps to a glyph. */
    characterSet: number[];
  }
  export function openSync(path: string): Font;
}
