import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { TextFont, TextStyle } from "@trove/schema";

/**
 * The fonts text layers are drawn with, shipped in npm packages (never system fonts, never
 * fetched): Arimo (metric-compatible with Arial and Helvetica), DejaVu Sans (the Verdana
 * stand-in; Arabic), Noto Sans SC (Chinese and Japanese kana/kanji). Licences: Arimo and Noto
 * Sans SC OFL-1.1, DejaVu the Bitstream Vera licence (apps/server/README.md).
 *
 * Pango finds fonts through fontconfig, which reads the machine's font configuration and would
 * happily substitute whatever the host has installed (a different "Arial", a CJK fallback) and
 * so make the same URL render differently from one server to the next. `isolateFontconfig`
 * points fontconfig at a configuration of our own whose only font directory holds links to the
 * bundled files, before the first text is drawn: with nothing else to choose from, every glyph
 * comes from a bundled font. FONTCONFIG_FILE is the one knob fontconfig reads for that; it is
 * process-wide, and nothing else in the process draws text.
 */

type Face = "regular" | "bold" | "italic" | "bold_italic";

interface BundledFamily {
  /** The family name inside the files, which Pango's font description names. */
  family: string;
  files: Record<Face, string>;
}

const FAMILIES = {
  arimo: {
    family: "Arimo",
    files: {
      regular: "@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf",
      bold: "@expo-google-fonts/arimo/700Bold/Arimo_700Bold.ttf",
      italic: "@expo-google-fonts/arimo/400Regular_Italic/Arimo_400Regular_Italic.ttf",
      bold_italic: "@expo-google-fonts/arimo/700Bold_Italic/Arimo_700Bold_Italic.ttf",
    },
  },
  dejavu: {
    family: "DejaVu Sans",
    files: {
      regular: "dejavu-fonts-ttf/ttf/DejaVuSans.ttf",
      bold: "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf",
      italic: "dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf",
      bold_italic: "dejavu-fonts-ttf/ttf/DejaVuSans-BoldOblique.ttf",
    },
  },
  // CJK has no italic; Pango slants the upright face when an italic is asked for.
  notoSansSc: {
    family: "Noto Sans SC",
    files: {
      regular: "@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf",
      bold: "@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf",
      italic: "@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf",
      bold_italic: "@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf",
    },
  },
} as const satisfies Record<string, BundledFamily>;

/**
 * The families tried for each font a URL may name, first choice first: the metric-compatible
 * font, then the ones that cover the scripts it lacks.
 */
const FALLBACKS: Record<TextFont, readonly BundledFamily[]> = {
  arial: [FAMILIES.arimo, FAMILIES.dejavu, FAMILIES.notoSansSc],
  helvetica: [FAMILIES.arimo, FAMILIES.dejavu, FAMILIES.notoSansSc],
  verdana: [FAMILIES.dejavu, FAMILIES.arimo, FAMILIES.notoSansSc],
};

/** Every font file that can draw a glyph, regular faces first (their cmaps decide coverage). */
export function bundledFontFiles(face: Face = "regular"): string[] {
  const require = createRequire(import.meta.url);
  return Object.values(FAMILIES).map((family) => require.resolve(family.files[face]));
}

/**
 * A Pango font description for `font` in `style` at `size` pixels (drawn at 72 dpi, where a
 * point is a pixel): `Arimo,DejaVu Sans,Noto Sans SC Bold Italic 24`.
 */
export function pangoFontDescription(font: TextFont, style: TextStyle | undefined, size: number): string {
  const families = FALLBACKS[font].map((family) => family.family).join(",");
  const styleWords = { bold: " Bold", italic: " Italic", bold_italic: " Bold Italic" };
  return `${families}${style ? styleWords[style] : ""} ${size}`;
}

let isolatedConfig: string | undefined;

/**
 * Makes fontconfig see the bundled fonts and nothing else (see the module comment). Idempotent;
 * must run before the process draws its first text, which is why the text renderer calls it
 * first thing. Returns the configuration file's path (tests read it).
 */
export function isolateFontconfig(): string {
  if (isolatedConfig !== undefined) return isolatedConfig;
  const require = createRequire(import.meta.url);
  // A fresh private directory (mkdtemp: 0700, unguessable), so no other user can plant a font.
  const root = mkdtempSync(join(tmpdir(), "trove-fonts-"));
  const fonts = join(root, "fonts");
  mkdirSync(fonts);
  const files = new Set(
    Object.values(FAMILIES).flatMap((family) =>
      Object.values(family.files).map((file) => require.resolve(file)),
    ),
  );
  for (const file of files) symlinkSync(file, join(fonts, basename(file)));
  const config = join(root, "fonts.conf");
  writeFileSync(
    config,
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
      "<fontconfig>",
      `  <dir>${escapeXml(fonts)}</dir>`,
      `  <cachedir>${escapeXml(join(root, "cache"))}</cachedir>`,
      "</fontconfig>",
      "",
    ].join("\n"),
  );
  process.env.FONTCONFIG_FILE = config;
  isolatedConfig = config;
  return config;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
