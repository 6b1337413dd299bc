/// <reference path="./fontkit.d.ts" />
import { openSync } from "fontkit";
import { MediaError } from "../media-error.js";
import { bundledFontFiles } from "./bundled-fonts.js";

/**
 * Refuses text the bundled fonts cannot draw, naming its script: with fontconfig limited to
 * those fonts (bundled-fonts.ts) a missing glyph would be drawn as an empty box, an image that
 * looks like a bug. Checked against the cmaps of the regular faces (the other faces of each
 * family cover the same characters), read once on first use (about 100 ms, mostly the CJK font).
 * Line feeds are allowed (they break lines); other control characters are refused; format
 * characters (joiners, direction marks) need no glyph of their own.
 */
export function checkDrawable(text: string): void {
  const covered = coverage();
  for (const character of text) {
    const codePoint = character.codePointAt(0) as number;
    if (character === "\n" || FORMAT.test(character)) continue;
    if (SURROGATE.test(character)) throw refusal("the text is not well-formed Unicode");
    if (CONTROL.test(character)) throw refusal(`the text holds a control character (${unicode(codePoint)})`);
    if (!covered.has(codePoint)) {
      const script = SCRIPTS.find((name) => new RegExp(`\\p{Script=${name}}`, "u").test(character));
      throw refusal(
        `the bundled fonts cannot draw ${script ? `${script.replace(/_/g, " ")} text` : "the character"} (${unicode(codePoint)}); they cover Latin, Greek, Cyrillic, Arabic, Hebrew, Chinese and Japanese`,
      );
    }
  }
}

const FORMAT = /^\p{Cf}$/u;
const CONTROL = /^\p{Cc}$/u;
// A lone surrogate: for...of yields it alone, a pair as one code point.
const SURROGATE = /^\p{Cs}$/u;

// Named in the refusal when one of their characters is missing; anything else is named by code point.
const SCRIPTS = [
  "Hangul",
  "Thai",
  "Lao",
  "Khmer",
  "Myanmar",
  "Devanagari",
  "Bengali",
  "Gurmukhi",
  "Gujarati",
  "Oriya",
  "Tamil",
  "Telugu",
  "Kannada",
  "Malayalam",
  "Sinhala",
  "Tibetan",
  "Ethiopic",
  "Georgian",
  "Armenian",
  "Mongolian",
  "Syriac",
  "Thaana",
  "Cherokee",
  "Canadian_Aboriginal",
  "Yi",
  "Hiragana",
  "Katakana",
  "Han",
  "Arabic",
  "Hebrew",
  "Greek",
  "Cyrillic",
  "Latin",
];

let covered: ReadonlySet<number> | undefined;

function coverage(): ReadonlySet<number> {
  covered ??= new Set(bundledFontFiles().flatMap((file) => openSync(file).characterSet));
  return covered;
}

const unicode = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;

const refusal = (reason: string) => new MediaError("INVALID_TRANSFORM", `l_text: ${reason}`);
