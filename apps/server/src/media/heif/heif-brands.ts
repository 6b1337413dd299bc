/**
 * Which ISOBMFF image files are HEIF for the pipeline, from the `ftyp` box's brands alone.
 *
 * - `avif`/`avis` as the major brand, or as a compatible brand of a generic `mif1`/`msf1` file:
 *   AVIF, decoded by libvips (its HEIF loader, AV1 only in the prebuilt build).
 * - `heic`, `heix`, `hevc`, `hevx`, `heim`, `heis` as the major brand, or as a compatible brand of
 *   a `mif1`/`msf1` file: HEIC (HEVC), `image/heic`, decoded by libheif in WebAssembly.
 * - `mif1`/`msf1` with neither: a HEIF of some other codec, `image/heif`. Sniffed as format
 *   `heic` too (the decoder refuses a primary image that is not HEVC, and the upload then keeps
 *   the bytes as a plain file).
 *
 * An AVIF brand wins over a HEVC one in a generic file because AVIF is the format that names
 * itself: a file that claims both is an AVIF with a stray brand far more often than the reverse,
 * and libvips refuses it cleanly if it is not.
 */
const HEVC_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis"]);
const AVIF_BRANDS = new Set(["avif", "avis"]);
const GENERIC_BRANDS = new Set(["mif1", "msf1"]);

export type HeifKind = { format: "avif" } | { format: "heic"; mimeType: "image/heic" | "image/heif" };

/** The HEIF kind of `head` (a file's first bytes), or undefined when it is not a HEIF image. */
export function heifKind(head: Uint8Array): HeifKind | undefined {
  if (head.length < 16 || fourcc(head, 4) !== "ftyp") return undefined;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const size = view.getUint32(0);
  // A size under 16 cannot hold a major and minor brand; past the head, read what is there.
  if (size < 16) return undefined;
  const end = Math.min(size, head.length);
  const major = fourcc(head, 8);
  const compatible = new Set<string>();
  for (let offset = 16; offset + 4 <= end; offset += 4) compatible.add(fourcc(head, offset));

  if (AVIF_BRANDS.has(major)) return { format: "avif" };
  if (HEVC_BRANDS.has(major)) return { format: "heic", mimeType: "image/heic" };
  if (!GENERIC_BRANDS.has(major)) return undefined;
  if ([...AVIF_BRANDS].some((brand) => compatible.has(brand))) return { format: "avif" };
  if ([...HEVC_BRANDS].some((brand) => compatible.has(brand)))
    return { format: "heic", mimeType: "image/heic" };
  return { format: "heic", mimeType: "image/heif" };
}

export function fourcc(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(
    bytes[offset] ?? 0,
    bytes[offset + 1] ?? 0,
    bytes[offset + 2] ?? 0,
    bytes[offset + 3] ?? 0,
  );
}
