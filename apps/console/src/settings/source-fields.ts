import type { Source, SourceType } from "@trove/schema";

/** One configuration field of a source type (packages/schema/src/sources.ts). */
export interface SourceField {
  key: string;
  label: string;
  /** Encrypted at rest and masked in every answer: typed, never shown back. */
  secret?: boolean;
  required?: boolean;
  kind?: "text" | "url" | "checkbox";
  hint?: string;
}

export const SOURCE_TYPE_LABELS: Record<SourceType, string> = {
  s3: "S3-compatible",
  azure: "Azure Blob Storage",
  google_cloud: "Google Cloud Storage",
  image_source: "Web server",
};

export const SOURCE_FIELDS: Record<SourceType, readonly SourceField[]> = {
  s3: [
    { key: "bucket", label: "Bucket", required: true },
    { key: "region", label: "Region", required: true },
    {
      key: "endpoint",
      label: "Endpoint",
      kind: "url",
      hint: "S3-compatible stores only (MinIO, R2…): scheme and host, e.g. https://s3.example.com",
    },
    { key: "access_key", label: "Access key", secret: true },
    { key: "secret_key", label: "Secret key", secret: true },
  ],
  azure: [
    { key: "container_name", label: "Container", required: true },
    { key: "connection_string", label: "Connection string", secret: true, required: true },
  ],
  google_cloud: [
    { key: "bucket_name", label: "Bucket", required: true },
    { key: "service_account_json", label: "Service account JSON", secret: true, required: true },
  ],
  image_source: [
    {
      key: "base_url",
      label: "Base URL",
      kind: "url",
      required: true,
      hint: "The web server's URL objects are under, without a trailing slash",
    },
    { key: "canonical_header", label: "Canonical header" },
    { key: "forward_header", label: "Forward the request's headers", kind: "checkbox" },
  ],
};

/**
 * The `configuration` of a create or update from the form's values. A secret left empty is not
 * sent: on an update the server keeps the stored one (configuration is merged); on a create of a
 * type that needs it, the server answers which field is missing. Other empty fields are not sent
 * either, so an update leaves them as they were.
 */
export function configurationOf(type: SourceType, form: FormData): Record<string, unknown> {
  const configuration: Record<string, unknown> = {};
  for (const field of SOURCE_FIELDS[type]) {
    if (field.kind === "checkbox") {
      configuration[field.key] = form.get(field.key) === "on";
      continue;
    }
    const value = String(form.get(field.key) ?? "");
    // Secrets are sent exactly as typed (a key may hold spaces); other fields trimmed.
    const sent = field.secret ? value : value.trim();
    if (sent !== "") configuration[field.key] = sent;
  }
  return configuration;
}

/** A stored source's non-secret field value, for the edit form (secrets are never shown). */
export function storedValue(source: Source | undefined, field: SourceField): string | boolean {
  if (!source || field.secret) return field.kind === "checkbox" ? false : "";
  const value = (source.configuration as Record<string, unknown>)[field.key];
  if (field.kind === "checkbox") return value === true;
  return typeof value === "string" ? value : "";
}

/** Whether a stored source has a secret set (the answer shows it masked, never its value). */
export function hasStoredSecret(source: Source | undefined, field: SourceField): boolean {
  return typeof (source?.configuration as Record<string, unknown> | undefined)?.[field.key] === "string";
}
