import { fileTypeFromBuffer } from "file-type";
import { fileNameExtension } from "./file-name-extension.js";
import { heifKind } from "./heif/heif-brands.js";
import { FORMAT_EXTENSIONS, FORMAT_MIME_TYPES, type RasterFormat } from "./raster-format.js";
import { sniffText } from "./sniff-text.js";

/**
 * How many leading bytes sniffing reads: file-type's own "reasonable detection size". Pass at
 * least this much (or the whole file, if shorter) as the head.
 */
export const SNIFF_HEAD_BYTES = 4100;

interface SniffedBase {
  /** From the bytes; the client's claimed type is never consulted. */
  mimeType: string;
  /** Without the dot, lowercase: the detected type's, else the file name's (sanitised), else `bin`. */
  extension: string;
}

/** A format the pipeline decodes (probeImage, processImage, renderVariant). */
export interface SniffedRasterImage extends SniffedBase {
  isRasterImage: true;
  format: RasterFormat;
}

/** Anything else, SVG included: stored and served as bytes, never decoded. */
export interface SniffedOther extends SniffedBase {
  isRasterImage: false;
  /** Short name: svg, pdf, mp4, zip, ...; for content with no signature, the extension. */
  format: string;
}

export type SniffedContent = SniffedRasterImage | SniffedOther;

const RASTER_BY_MIME: Record<string, RasterFormat> = {
  "image/jpeg": "jpeg",
  // APNG is a PNG with extra chunks: decoders without APNG support show its first frame.
  "image/png": "png",
  "image/apng": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/avif": "avif",
  "image/tiff": "tiff",
};

const SVG: SniffedOther = {
  mimeType: "image/svg+xml",
  format: "svg",
  extension: "svg",
  isRasterImage: false,
};
const PLAIN_TEXT: SniffedOther = {
  mimeType: "text/plain",
  format: "txt",
  extension: "txt",
  isRasterImage: false,
};

// Text is labelled by its file name only for types a browser renders inertly. HTML, XML, JS and
// CSS stay text/plain: served from the assets host with their real type they would run there.
const TEXT_MIME_BY_EXTENSION: Record<string, string> = {
  txt: "text/plain",
  csv: "text/csv",
  json: "application/json",
  md: "text/markdown",
};

/**
 * Identifies content from its first bytes (`head`, at least SNIFF_HEAD_BYTES or the whole
 * file) and, only for content with no signature, the client's file name. For SVG, see the
 * module README in index.ts: it is recognised but never rasterised.
 */
export async function sniffContent(head: Uint8Array, fileName?: string): Promise<SniffedContent> {
  const bytes = head.length > SNIFF_HEAD_BYTES ? head.subarray(0, SNIFF_HEAD_BYTES) : head;
  const detected = bytes.length === 0 ? undefined : await fileTypeFromBuffer(bytes);
  const truncated = head.length >= SNIFF_HEAD_BYTES;
  // HEIF before file-type, whose brand rules differ from the pipeline's (heif-brands.ts).
  const heif = heifKind(bytes);
  if (heif !== undefined) {
    const mimeType = heif.format === "heic" ? heif.mimeType : FORMAT_MIME_TYPES.avif;
    return { mimeType, format: heif.format, extension: FORMAT_EXTENSIONS[heif.format], isRasterImage: true };
  }
  // file-type calls any `<?xml` file XML, SVG included; and XML served with an XML type can
  // render as XHTML (scripts and all) on the assets host. So XML is either SVG or inert text.
  if (detected?.mime === "application/xml") {
    return sniffText(bytes, truncated) === "svg" ? SVG : { ...PLAIN_TEXT, format: "xml", extension: "xml" };
  }
  if (detected !== undefined) {
    const raster = RASTER_BY_MIME[detected.mime];
    if (raster !== undefined) {
      return {
        mimeType: FORMAT_MIME_TYPES[raster],
        format: raster,
        extension: FORMAT_EXTENSIONS[raster],
        isRasterImage: true,
      };
    }
    return { mimeType: detected.mime, format: detected.ext, extension: detected.ext, isRasterImage: false };
  }

  const named = fileNameExtension(fileName);
  const text = sniffText(bytes, truncated);
  if (text === "svg") return SVG;
  if (text === "text") {
    const extension = named ?? "txt";
    const mimeType = TEXT_MIME_BY_EXTENSION[extension] ?? "text/plain";
    return { mimeType, format: extension, extension, isRasterImage: false };
  }
  const extension = named ?? "bin";
  return { mimeType: "application/octet-stream", format: extension, extension, isRasterImage: false };
}
