/**
 * The server-wide upload policy of public keys that carry none of their own, from the
 * environment. Every variable unset (the default) means no restriction, as before policies
 * existed, so clients that know only public keys keep working:
 *
 *   TROVE_PUBLIC_KEY_MAX_FILE_SIZE     bytes or a size (20MB, 1GiB)
 *   TROVE_PUBLIC_KEY_ALLOWED_TYPES     comma-separated sniffed types (image/*,video/mp4)
 *   TROVE_PUBLIC_KEY_FOLDER            folder uploads must land in, TROVE_PUBLIC_KEY_FOLDER_MATCH exact|prefix (exact)
 *   TROVE_PUBLIC_KEY_ALLOW_REMOTE      false: refuse remote-URL uploads
 *   TROVE_PUBLIC_KEY_ALLOW_MULTIPART   false: refuse multipart uploads
 *   TROVE_PUBLIC_KEY_ALLOW_TRANSFORMS  false: refuse store-time transforms
 */
import { type UploadPolicy, uploadPolicySchema } from "@trove/schema";
import { z } from "zod";
import { ByteSizeError, parseByteSize } from "../byte-size.js";
import { normalizePolicy } from "./upload-policy.js";

const blankToUndefined = (v: string | undefined) =>
  v === undefined || v.trim() === "" ? undefined : v.trim();
const optional = z.string().optional().transform(blankToUndefined);
const flag = optional.pipe(z.enum(["true", "false", "1", "0"]).optional());
const byteSize = optional.transform((value, ctx) => {
  if (value === undefined) return undefined;
  try {
    return parseByteSize(value);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: error instanceof ByteSizeError ? error.message : String(error) });
    return z.NEVER;
  }
});

export const publicKeyPolicyEnvSchema = {
  TROVE_PUBLIC_KEY_MAX_FILE_SIZE: byteSize,
  TROVE_PUBLIC_KEY_ALLOWED_TYPES: optional,
  TROVE_PUBLIC_KEY_FOLDER: optional,
  TROVE_PUBLIC_KEY_FOLDER_MATCH: optional.pipe(z.enum(["exact", "prefix"]).optional()),
  TROVE_PUBLIC_KEY_ALLOW_REMOTE: flag,
  TROVE_PUBLIC_KEY_ALLOW_MULTIPART: flag,
  TROVE_PUBLIC_KEY_ALLOW_TRANSFORMS: flag,
};

type Env = { [K in keyof typeof publicKeyPolicyEnvSchema]?: z.output<(typeof publicKeyPolicyEnvSchema)[K]> };

const asBoolean = (value: string | undefined) =>
  value === undefined ? undefined : value === "true" || value === "1";

/** The default policy, or undefined when no variable restricts anything. Throws on a bad value. */
export function resolvePublicKeyPolicy(e: Env): UploadPolicy | undefined {
  const candidate = {
    folder: e.TROVE_PUBLIC_KEY_FOLDER,
    folder_match: e.TROVE_PUBLIC_KEY_FOLDER_MATCH,
    max_file_size: e.TROVE_PUBLIC_KEY_MAX_FILE_SIZE,
    allowed_types: e.TROVE_PUBLIC_KEY_ALLOWED_TYPES?.split(",").map((type) => type.trim().toLowerCase()),
    allow_remote: asBoolean(e.TROVE_PUBLIC_KEY_ALLOW_REMOTE),
    allow_multipart: asBoolean(e.TROVE_PUBLIC_KEY_ALLOW_MULTIPART),
    allow_transforms: asBoolean(e.TROVE_PUBLIC_KEY_ALLOW_TRANSFORMS),
  };
  const set = Object.fromEntries(Object.entries(candidate).filter(([, value]) => value !== undefined));
  if (Object.keys(set).length === 0) return undefined;
  return normalizePolicy(uploadPolicySchema.parse(set));
}
