import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import type { TextLayerSource } from "@trove/schema";
import { describe, expect, it } from "vitest";
import type { Frame } from "../frame.js";
import { resolveMediaLimits } from "../media-limits.js";
import { bundledFontFiles, isolateFontconfig } from "./bundled-fonts.js";
import { escapeMarkup, renderTextLayer } from "./text-layer.js";

const limits = resolveMediaLimits();

const draw = (text: string, more: Partial<TextLayerSource> = {}, colour = "000000") =>
  renderTextLayer({ kind: "text", font: "arial", size: 40, text, ...more }, colour, 1, limits);

/** Columns [from, to) of a frame's alpha, summed per column. */
function inkColumns(frame: Frame): number[] {
  const columns = new Array<number>(frame.width).fill(0);
  for (let y = 0; y < frame.height; y++)
    for (let x = 0; x < frame.width; x++)
      columns[x] = (columns[x] as number) + (frame.data[(y * frame.width + x) * 4 + 3] as number);
  return columns;
}
const ink = (frame: Frame) => inkColumns(frame).reduce((a, b) => a + b, 0);

describe("renderTextLayer", () => {
  it("draws Latin text of about the expected size, in its colour", async () => {
    const frame = await draw("Hello", {}, "ff0000");
    expect(frame.channels).toBe(4);
    expect(frame.width).toBeGreaterThan(80);
    expect(frame.width).toBeLessThan(120);
    expect(frame.height).toBeGreaterThan(25);
    expect(frame.height).toBeLessThan(60);
    const opaque = [...Array(frame.width * frame.height).keys()].find(
      (i) => frame.data[i * 4 + 3] === 255,
    ) as number;
    expect([...frame.data.subarray(opaque * 4, opaque * 4 + 3)]).toEqual([255, 0, 0]);
  });

  it("draws Chinese and Japanese with the bundled CJK font: one em per character", async () => {
    for (const text of ["你好世界", "こんにちは"]) {
      const frame = await draw(text);
      expect(ink(frame)).toBeGreaterThan(0);
      expect(frame.width).toBeGreaterThan([...text].length * 40 * 0.85);
      expect(frame.width).toBeLessThan([...text].length * 40 * 1.15);
    }
  });

  it("draws Arabic and Hebrew, right to left: the first character is the rightmost", async () => {
    const arabic = await draw("مرحبا");
    expect(ink(arabic)).toBeGreaterThan(0);
    expect(arabic.width).toBeGreaterThan(50);
    expect(arabic.width).toBeLessThan(140);
    // ו (narrow) written first: it must stand at the right of the ששש drawn alone.
    const word = inkColumns(await draw("ששש"));
    const withVav = inkColumns(await draw("וששש"));
    const difference = (offset: number) =>
      word.reduce((sum, value, x) => sum + Math.abs(value - (withVav[x + offset] as number)), 0);
    const atLeft = difference(0);
    const atRight = difference(withVav.length - word.length);
    expect(atLeft).toBeLessThan(atRight / 4);
  });

  it("draws bold heavier and verdana (DejaVu Sans) wider than arial (Arimo)", async () => {
    expect(ink(await draw("Hello", { style: "bold" }))).toBeGreaterThan(ink(await draw("Hello")) * 1.2);
    expect((await draw("Hello", { font: "verdana" })).width).toBeGreaterThan((await draw("Hello")).width);
    const italic = await draw("Hello", { style: "italic" });
    expect(Buffer.compare(italic.data, (await draw("Hello")).data)).not.toBe(0);
  });

  it("refuses scripts, symbols and control characters the fonts cannot draw, naming them", async () => {
    await expect(draw("안녕")).rejects.toThrow(/Hangul text \(U\+C548\)/);
    await expect(draw("नमस्ते")).rejects.toThrow(/Devanagari/);
    await expect(draw("ok \u{13000}")).rejects.toThrow(/the character \(U\+13000\)/);
    await expect(draw("a\u0007b")).rejects.toThrow(/control character \(U\+0007\)/);
    await expect(draw("a\uD800b")).rejects.toThrow(/well-formed/);
    // Line feeds break lines; direction marks need no glyph.
    expect((await draw("a\nb")).height).toBeGreaterThan((await draw("ab")).height * 1.5);
    expect(ink(await draw("a\u200Fb"))).toBeGreaterThan(0);
  });

  it("refuses text whose bitmap would be too large before drawing it", async () => {
    const small = resolveMediaLimits({ maxUpscalePixels: 10_000 });
    await expect(
      renderTextLayer({ kind: "text", font: "arial", size: 100, text: "WWWWWWWWWW" }, "000000", 1, small),
    ).rejects.toMatchObject({ code: "IMAGE_TOO_LARGE" });
  });

  it("multiplies the font size by the scale (dpr)", async () => {
    const one = await draw("Hello");
    const two = await renderTextLayer(
      { kind: "text", font: "arial", size: 40, text: "Hello" },
      "000000",
      2,
      limits,
    );
    expect(two.width).toBeGreaterThan(one.width * 1.8);
    expect(two.width).toBeLessThan(one.width * 2.2);
  });
});

describe("escapeMarkup", () => {
  it("escapes every character Pango markup reads", () => {
    expect(escapeMarkup(`<span foreground="red">&'x'</span>`)).toBe(
      "&lt;span foreground=&quot;red&quot;&gt;&amp;&apos;x&apos;&lt;/span&gt;",
    );
  });
});

describe("isolateFontconfig", () => {
  it("leaves fontconfig one directory, of links to the bundled fonts only", async () => {
    await draw("x");
    const config = isolateFontconfig();
    expect(process.env.FONTCONFIG_FILE).toBe(config);
    const text = readFileSync(config, "utf8");
    const dirs = [...text.matchAll(/<dir>([^<]*)<\/dir>/g)].map((match) => match[1] as string);
    expect(dirs).toEqual([join(dirname(config), "fonts")]);
    expect(text).not.toMatch(/<include|\/usr\/share|\/etc\/fonts/);
    const targets = readdirSync(dirs[0] as string).map((name) => readlinkSync(join(dirs[0] as string, name)));
    for (const target of targets)
      expect(target).toMatch(/node_modules\/(@expo-google-fonts|dejavu-fonts-ttf)\//);
    for (const file of bundledFontFiles()) expect(targets).toContain(file);
  });
});
