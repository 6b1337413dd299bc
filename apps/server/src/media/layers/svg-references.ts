import { MediaError } from "../media-error.js";
import { parseRasterHeader } from "../parse-raster-header.js";
import { sniffContent } from "../sniff-content.js";

/**
 * Refuses an SVG layer that could make the rasteriser read anything but its own bytes. resvg
 * fetches no URL, but it reads an `<image href="/any/path.png">` (or a path relative to the
 * process's working directory) from the server's disk, and parses `data:` SVGs inside SVGs. So
 * every `href` (any prefix: `xlink:href`, `a:href`, on any element, `feImage` included) must be
 * a fragment of the document itself (`#id`) or a `data:` URL holding a PNG, JPEG, GIF or WebP
 * whose header our parsers vouch for (bytes, not the declared type, decide); the embedded
 * images' declared pixels count against `maxPixels`, since resvg decodes them whole. Entity
 * declarations are refused outright: an entity can spell an href the scan cannot see.
 * The scan runs over the raw text and errs towards refusing (an "href=" inside text content
 * counts too).
 */
export async function checkSvgReferences(svg: string, maxPixels: number): Promise<void> {
  if (/<!ENTITY/i.test(svg)) throw refusal("declares entities");
  let embeddedPixels = 0;
  for (const match of svg.matchAll(HREF)) {
    const value = decodeCharacterReferences(match[1] ?? match[2] ?? "");
    if (value === undefined) throw refusal("has an href with a named entity");
    if (value.startsWith("#")) continue;
    const data = DATA_URL.exec(value);
    if (!data)
      throw refusal("references a resource outside itself (only #fragments and data: images are drawn)");
    const bytes = Buffer.from(data[1] as string, "base64");
    const sniffed = await sniffContent(bytes);
    const header = sniffed.isRasterImage ? parseRasterHeader(bytes, sniffed.format) : undefined;
    if (!header) throw refusal("embeds a data: image that is not a well-formed PNG, JPEG, GIF or WebP");
    embeddedPixels += header.width * header.height;
    if (embeddedPixels > maxPixels) {
      throw refusal(`embeds images of more than ${maxPixels} pixels in all`);
    }
  }
}

// An attribute whose name ends in href (whatever its prefix), and its quoted value.
const HREF = /href\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const DATA_URL = /^data:image\/(?:png|jpeg|jpg|gif|webp);base64,([A-Za-z0-9+/=\s]*)$/i;

/** The value with `&#N;`, `&#xN;` and the five predefined entities replaced; undefined if another entity is used. */
function decodeCharacterReferences(value: string): string | undefined {
  let unknown = false;
  const decoded = value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (_, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code <= 0x10ffff ? String.fromCodePoint(code) : "\uFFFD";
    }
    const predefined = PREDEFINED[name];
    if (predefined === undefined) unknown = true;
    return predefined ?? "";
  });
  return unknown ? undefined : decoded;
}

const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

const refusal = (reason: string) => new MediaError("INVALID_TRANSFORM", `l_image: this SVG ${reason}`);
