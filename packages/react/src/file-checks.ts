/**
 * The checks `<TroveUploader>` makes before sending anything: the `accept` list (the same syntax
 * as `<input accept>`, which a drop or a paste bypasses) and a largest size. The server judges
 * the sniffed content again; these only spare a doomed upload.
 */
import { ENGLISH, type UploaderStrings } from "./uploader-strings.js";

export type RejectionReason = "type" | "size" | "dimensions";

export interface FileRejection {
  file: File;
  reason: RejectionReason;
  /** One sentence for the page, naming the file. */
  message: string;
}

/**
 * Types browsers often leave empty: an iPhone's HEIC photo copied to a computer usually arrives
 * with `type: ""`, so without this an `image/*` uploader would refuse it. The server sniffs the
 * bytes anyway (and decodes HEIC and HEIF).
 */
const TYPE_BY_EXTENSION: Record<string, string> = { heic: "image/heic", heif: "image/heif" };
const HEIF_TYPES = new Set(Object.values(TYPE_BY_EXTENSION));

/** A file's type, or the one its extension implies when the browser gave none. */
function typeOf(file: Pick<File, "name" | "type">): string {
  if (file.type) return file.type.toLowerCase();
  const extension = file.name.toLowerCase().split(".").pop() ?? "";
  return TYPE_BY_EXTENSION[extension] ?? "";
}

function acceptPatterns(accept: string | undefined): string[] {
  return (accept ?? "")
    .split(",")
    .map((pattern) => pattern.trim().toLowerCase())
    .filter(Boolean);
}

/** `accept` as `<input accept>` reads it: MIME types, `type/*` wildcards and `.ext` suffixes. */
export function matchesAccept(file: Pick<File, "name" | "type">, accept: string | undefined): boolean {
  const patterns = acceptPatterns(accept);
  if (patterns.length === 0) return true;
  const name = file.name.toLowerCase();
  const type = typeOf(file);
  return patterns.some((pattern) => {
    if (pattern.startsWith(".")) return name.endsWith(pattern);
    if (pattern.endsWith("/*")) return type.startsWith(pattern.slice(0, -1));
    return type === pattern;
  });
}

/**
 * The `accept` attribute for the file input: `accept` plus `.heic`/`.heif` when it takes HEIC
 * images (`image/*`, `image/heic`, `image/heif`), so that the picker offers them even where the
 * system does not know their type.
 */
export function inputAccept(accept: string | undefined): string | undefined {
  const patterns = acceptPatterns(accept);
  const takesHeic = patterns.some((pattern) => pattern === "image/*" || HEIF_TYPES.has(pattern));
  if (!takesHeic) return accept;
  const missing = Object.keys(TYPE_BY_EXTENSION)
    .map((extension) => `.${extension}`)
    .filter((extension) => !patterns.includes(extension));
  return [accept, ...missing].join(",");
}

export function checkFile(
  file: File,
  limits: { accept?: string | undefined; maxSize?: number | undefined },
  formatSize: (bytes: number) => string,
  messages: Pick<UploaderStrings, "rejectedType" | "rejectedSize"> = ENGLISH,
): FileRejection | undefined {
  if (!matchesAccept(file, limits.accept)) {
    return { file, reason: "type", message: messages.rejectedType(file.name) };
  }
  if (limits.maxSize !== undefined && file.size > limits.maxSize) {
    return {
      file,
      reason: "size",
      message: messages.rejectedSize(file.name, formatSize(file.size), formatSize(limits.maxSize)),
    };
  }
  return undefined;
}
