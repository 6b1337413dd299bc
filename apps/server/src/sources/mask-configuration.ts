/**
 * The configuration of a source as responses show it: the fields its type defines, in the
 * schema's order, with every secret field replaced by `MASKED_SECRET`. Built from the stored
 * (sealed) form, so a plaintext secret is never at hand here; fields the type does not define
 * (a hand-edited row) are left out rather than echoed.
 */
import { MASKED_SECRET, type SourceType, sourceConfigurationSchemas } from "@trove/schema";
import { configurationRecord, isSecretField } from "./configuration-secrets.js";

export function maskConfiguration(type: SourceType, stored: unknown): Record<string, unknown> {
  const configuration = configurationRecord(stored);
  const masked: Record<string, unknown> = {};
  for (const key of Object.keys(sourceConfigurationSchemas[type].shape)) {
    const value = configuration[key];
    if (value === undefined || value === null) continue;
    masked[key] = isSecretField(key) ? MASKED_SECRET : value;
  }
  return masked;
}
