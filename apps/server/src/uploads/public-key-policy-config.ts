/**
 * The server-wide upload policy of public keys that carry none of their own, from the
 * TROVE_PUBLIC_KEY_* settings (src/config/settings.ts). Every variable unset (the default) means
 * no restriction, as before policies existed, so clients that know only public keys keep working.
 */
import { type UploadPolicy, uploadPolicySchema } from "@trove/schema";
import { type Environment, readSettings } from "../config/read-settings.js";
import { normalizePolicy } from "./upload-policy.js";

const POLICY_SETTINGS = [
  "TROVE_PUBLIC_KEY_MAX_FILE_SIZE",
  "TROVE_PUBLIC_KEY_ALLOWED_TYPES",
  "TROVE_PUBLIC_KEY_FOLDER",
  "TROVE_PUBLIC_KEY_FOLDER_MATCH",
  "TROVE_PUBLIC_KEY_ALLOW_REMOTE",
  "TROVE_PUBLIC_KEY_ALLOW_MULTIPART",
  "TROVE_PUBLIC_KEY_ALLOW_TRANSFORMS",
] as const;

/**
 * The default policy the environment describes, or undefined when no variable restricts
 * anything. Throws ConfigError for a variable that does not parse, a zod error or an Error for a
 * policy the schema refuses (src/config.ts names them).
 */
export function resolvePublicKeyPolicy(env: Environment): UploadPolicy | undefined {
  const e = readSettings(env, POLICY_SETTINGS);
  const candidate = {
    folder: e.TROVE_PUBLIC_KEY_FOLDER,
    folder_match: e.TROVE_PUBLIC_KEY_FOLDER_MATCH,
    max_file_size: e.TROVE_PUBLIC_KEY_MAX_FILE_SIZE,
    allowed_types: e.TROVE_PUBLIC_KEY_ALLOWED_TYPES?.split(",").map((type) => type.trim().toLowerCase()),
    allow_remote: e.TROVE_PUBLIC_KEY_ALLOW_REMOTE,
    allow_multipart: e.TROVE_PUBLIC_KEY_ALLOW_MULTIPART,
    allow_transforms: e.TROVE_PUBLIC_KEY_ALLOW_TRANSFORMS,
  };
  const set = Object.fromEntries(Object.entries(candidate).filter(([, value]) => value !== undefined));
  if (Object.keys(set).length === 0) return undefined;
  return normalizePolicy(uploadPolicySchema.parse(set));
}
