/**
 * Source secrets at rest: the secret fields of a configuration (`access_key`, `secret_key`,
 * `connection_string`, `service_account_json`) are stored sealed with the server's secret key
 * (src/crypto/secret-box.ts, purpose "source-config"); every other field is stored as given.
 *
 *   const stored = sealConfiguration(config.secretKey, { region: "eu", bucket: "b", secret_key: "..." });
 *   stored.secret_key   // "tsb1.<iv>.<ciphertext+tag>"
 *   openConfiguration(config.secretKey, stored).secret_key   // the plaintext again
 *
 * Only code that must use the credentials (and tests) calls `openConfiguration`; responses are
 * built from the stored form by ./mask-configuration.ts and never see a plaintext secret.
 */
import { SOURCE_SECRET_FIELDS, type SourceSecretField } from "@trove/schema";
import { isSealed, openSecret, sealSecret } from "../crypto/secret-box.js";

export const SOURCE_SECRET_PURPOSE = "source-config";

/** A configuration object as stored in the `configuration` JSON column or received in a body. */
export type ConfigurationRecord = Record<string, unknown>;

const SECRET_FIELD_SET: ReadonlySet<string> = new Set(SOURCE_SECRET_FIELDS);

export function isSecretField(key: string): key is SourceSecretField {
  return SECRET_FIELD_SET.has(key);
}

/** The stored configuration as a plain object (`{}` for anything else, which no valid row holds). */
export function configurationRecord(value: unknown): ConfigurationRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? { ...(value as ConfigurationRecord) }
    : {};
}

/**
 * The stored form of a plaintext configuration: each secret field sealed. `reuse` lists secret
 * fields whose sealed value in `previous` is kept byte-for-byte (a secret the caller did not
 * change keeps its ciphertext).
 */
export function sealConfiguration(
  secretKey: Buffer,
  configuration: ConfigurationRecord,
  previous: ConfigurationRecord = {},
  reuse: ReadonlySet<string> = new Set(),
): ConfigurationRecord {
  const stored: ConfigurationRecord = {};
  for (const [key, value] of Object.entries(configuration)) {
    if (value === undefined) continue;
    if (!isSecretField(key) || typeof value !== "string") {
      stored[key] = value;
    } else if (reuse.has(key) && isSealed(previous[key])) {
      stored[key] = previous[key];
    } else {
      stored[key] = sealSecret(secretKey, SOURCE_SECRET_PURPOSE, value);
    }
  }
  return stored;
}

/**
 * The plaintext configuration of a stored one. A secret that is not sealed (a row written by
 * hand) is returned as it is; one sealed with another key throws.
 */
export function openConfiguration(secretKey: Buffer, stored: unknown): ConfigurationRecord {
  const configuration = configurationRecord(stored);
  for (const key of SOURCE_SECRET_FIELDS) {
    const value = configuration[key];
    if (isSealed(value)) configuration[key] = openSecret(secretKey, SOURCE_SECRET_PURPOSE, value);
  }
  return configuration;
}
