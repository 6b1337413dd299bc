/**
 * PATCH semantics of a source configuration (endpoint 17): the fields sent are merged into the
 * stored ones.
 *
 * - a field with a value replaces the stored one;
 * - a secret field sent masked (only asterisks, as responses show it) keeps the stored secret;
 *   with no stored secret to keep, the masked value stays and validation rejects it;
 * - a field sent as `null` is removed (e.g. `canonical_header: null`); removing a required
 *   field makes the merged configuration invalid;
 * - fields not sent are kept.
 *
 * `current` is the plaintext configuration; the result says which secret fields were kept, so
 * the caller can keep their ciphertext unchanged.
 */
import { isMaskedSecret } from "@trove/schema";
import { type ConfigurationRecord, isSecretField } from "./configuration-secrets.js";

export interface MergedConfiguration {
  configuration: ConfigurationRecord;
  /** Secret fields whose stored value was kept (not sent, or sent masked). */
  keptSecrets: Set<string>;
}

export function mergeConfiguration(
  current: ConfigurationRecord,
  patch: ConfigurationRecord,
): MergedConfiguration {
  const configuration: ConfigurationRecord = { ...current };
  const keptSecrets = new Set<string>(Object.keys(current).filter(isSecretField));
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (isSecretField(key) && isMaskedSecret(value) && current[key] !== undefined) continue;
    keptSecrets.delete(key);
    if (value === null) delete configuration[key];
    else configuration[key] = value;
  }
  return { configuration, keptSecrets };
}
