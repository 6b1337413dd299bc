import * as z from "zod";

/**
 * What happens to the personal metadata embedded in an uploaded image (EXIF, XMP, IPTC, text
 * chunks), removed without re-encoding the image:
 *
 * - `strip`: location, serial numbers, owner/artist/copyright names, comments and descriptions,
 *   XMP, IPTC and maker notes go; the colour profile and the orientation stay.
 * - `strip-location`: only GPS goes (and any XMP block that names it).
 * - `keep`: the bytes are stored as they came.
 *
 * Chosen by the workspace (admin API), an upload policy and the upload itself; the rule, and
 * the default (public keys and upload tokens strip, private keys keep), are in the server's
 * README.
 */
export const EMBEDDED_METADATA_MODES = ["strip", "strip-location", "keep"] as const;
export type EmbeddedMetadataMode = (typeof EMBEDDED_METADATA_MODES)[number];

export const embeddedMetadataModeSchema = z.enum(EMBEDDED_METADATA_MODES, {
  error: `embedded_metadata must be one of: ${EMBEDDED_METADATA_MODES.join(", ")}`,
});
