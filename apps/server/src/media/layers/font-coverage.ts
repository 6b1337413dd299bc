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
      const script = SCRIPTS.find(([, pattern]) => pattern.test(character))?.[0];
      throw refusal(
        `the bundled fonts cannot draw ${script ? `${script} text` : "the character"} (${unicode(codePoint)}); they cover Latin, Greek, Cyrillic, Arabic, Hebrew, Chinese and Japanese`,
      );
    }
  }
}

const FORMAT = /^\p{Cf}$/u;
const CONTROL = /^\p{Cc}$/u;
// A lone surrogate: for...of yields it alone, a pair as one code point.
const SURROGATE = /^\p{Cs}$/u;

// Named in the refusal when one of their characters is missing; anything else is named by code
// point. Literal patterns, so each is checked by the regex-safety tool like any other.
const SCRIPTS: ReadonlyArray<readonly [string, RegExp]> = [
  ["Hangul", /\p{Script=Hangul}/u],
  ["Thai", /\p{Script=Thai}/u],
  ["Lao", /\p{Script=Lao}/u],
  ["Khmer", /\p{Script=Khmer}/u],
  ["Myanmar", /\p{Script=Myanmar}/u],
  ["Devanagari", /\p{Script=Devanagari}/u],
  ["Bengali", /\p{Script=Bengali}/u],
  ["Gurmukhi", /\p{Script=Gurmukhi}/u],
  ["Gujarati", /\p{Script=Gujarati}/u],
  ["Oriya", /\p{Script=Oriya}/u],
  ["Tamil", /\p{Script=Tamil}/u],
  ["Telugu", /\p{Script=Telugu}/u],
  ["Kannada", /\p{Script=Kannada}/u],
  ["Malayalam", /\p{Script=Malayalam}/u],
  ["Sinhala", /\p{Script=Sinhala}/u],
  ["Tibetan", /\p{Script=Tibetan}/u],
  ["Ethiopic", /\p{Script=Ethiopic}/u],
  ["Georgian", /\p{Script=Georgian}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["Mongolian", /\p{Script=Mongolian}/u],
  ["Syriac", /\p{Script=Syriac}/u],
  ["Thaana", /\p{Script=Thaana}/u],
  ["Cherokee", /\p{Script=Cherokee}/u],
  ["Canadian Aboriginal", /\p{Script=Canadian_Aboriginal}/u],
  ["Yi", /\p{Script=Yi}/u],
  ["Hiragana", /\p{Script=Hiragana}/u],
  ["Katakana", /\p{Script=Katakana}/u],
  ["Han", /\p{Script=Han}/u],
  ["Arabic", /\p{Script=Arabic}/u],
  ["Hebrew", /\p{Script=Hebrew}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Latin", /\p{Script=Latin}/u],
];

let covered: ReadonlySet<number> | undefined;

function coverage(): ReadonlySet<number> {
  covered ??= new Set(bundledFontFiles().flatMap((file) => openSync(file).characterSet));
  return covered;
}

const unicode = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;

const refusal = (reason: string) => new MediaError("INVALID_TRANSFORM", `l_text: ${reason}`);
