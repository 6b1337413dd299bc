/**
 * The name an uploaded file is stored under (`files.name`, the last segment of its path and URL).
 *
 *   storedFileName("holiday.png", "jpg")                 -> "holiday.jpg"     (the bytes are a JPEG)
 *   storedFileName("holiday", "jpg")                     -> "holiday.jpg"     (extension added)
 *   storedFileName("Holiday.JPEG", "jpg")                -> "Holiday.jpg"     (alias and case normalised)
 *   storedFileName("report v1.2", "pdf")                 -> "report v1.2.pdf" ("2" names no type: kept)
 *   storedFileName("cat.jpg", "jpg", { suffix: "k3x9" }) -> "cat-k3x9.jpg"    (random_prefix)
 *   collisionName("cat.jpg", 2)                          -> "cat-2.jpg"       (name taken in the folder)
 *
 * Rules: the caller's base name is kept (outer blanks, control characters and path separators
 * refused, trailing dots dropped); the extension always is the stored content's, lowercase, so a
 * URL's extension never lies about the bytes behind it. The caller's own extension is replaced
 * when it names some file type (anything file-type knows, plus common text and alias spellings),
 * and otherwise counts as part of the base name.
 */
import { supportedExtensions } from "file-type";
import { badRequest } from "../errors/index.js";
import { cleanName } from "../files/clean-name.js";
import { withoutTrailingDots } from "../files/without-trailing-dots.js";

/** Longest stored name in characters, suffixes and extension included. */
export const MAX_STORED_NAME_LENGTH = 255;

const EXTRA_TYPE_EXTENSIONS = [
  "jpg",
  "jpeg",
  "jpe",
  "jfif",
  "tif",
  "tiff",
  "txt",
  "text",
  "csv",
  "tsv",
  "json",
  "md",
  "markdown",
  "svg",
  "svgz",
  "xml",
  "html",
  "htm",
  "js",
  "mjs",
  "css",
  "yml",
  "yaml",
  "log",
  "bin",
  "dat",
];
const TYPE_EXTENSIONS: ReadonlySet<string> = new Set([...supportedExtensions, ...EXTRA_TYPE_EXTENSIONS]);

function splitName(name: string): { stem: string; extension: string | undefined } {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return { stem: name, extension: undefined };
  return { stem: name.slice(0, dot), extension: name.slice(dot + 1).toLowerCase() };
}

export interface StoredNameOptions {
  /** Appended to the base name after a hyphen (random_prefix). */
  suffix?: string;
}

export function storedFileName(
  requested: string,
  extension: string,
  options: StoredNameOptions = {},
): string {
  const name = withoutTrailingDots(cleanName(requested, "file_name"));
  const split = splitName(name);
  let stem =
    split.extension !== undefined && (split.extension === extension || TYPE_EXTENSIONS.has(split.extension))
      ? split.stem
      : name;
  stem = withoutTrailingDots(stem);
  if (stem === "") throw badRequest("file_name must contain more than an extension");
  const tail = `${options.suffix ? `-${options.suffix}` : ""}${extension ? `.${extension}` : ""}`;
  // Keep whole code points when shortening.
  const room = MAX_STORED_NAME_LENGTH - tail.length;
  const chars = Array.from(stem);
  if (chars.length > room) stem = withoutTrailingDots(chars.slice(0, room).join("")) || "file";
  return `${stem}${tail}`;
}

/** The n-th alternative of a taken name: `cat.jpg` -> `cat-n.jpg`. */
export function collisionName(storedName: string, n: number): string {
  const { stem, extension } = splitName(storedName);
  return extension === undefined ? `${storedName}-${n}` : `${stem}-${n}.${extension}`;
}

/** What every alternative of `storedName` starts with: `cat-` for `cat.jpg`. */
export function collisionStem(storedName: string): string {
  const { stem, extension } = splitName(storedName);
  return `${extension === undefined ? storedName : stem}-`;
}

/** Matches the alternatives of `storedName` and captures n (`cat-(\d+).jpg`). */
export function collisionPattern(storedName: string): RegExp {
  const { stem, extension } = splitName(storedName);
  const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return extension === undefined
    ? new RegExp(`^${escapeRegExp(storedName)}-(\\d{1,9})$`)
    : new RegExp(`^${escapeRegExp(stem)}-(\\d{1,9})\\.${escapeRegExp(extension)}$`);
}
