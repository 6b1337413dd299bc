import * as z from "zod";
import { limitQuerySchema, pageQuerySchema, timestampSchema, uuidSchema } from "./common.js";

export const SOURCE_TYPES = ["s3", "azure", "google_cloud", "image_source"] as const;
export const sourceTypeSchema = z.enum(SOURCE_TYPES);
export type SourceType = z.infer<typeof sourceTypeSchema>;

/** Fields that are secrets: encrypted at rest, masked in every response. */
export const SOURCE_SECRET_FIELDS = [
  "access_key",
  "secret_key",
  "connection_string",
  "service_account_json",
] as const;
export type SourceSecretField = (typeof SOURCE_SECRET_FIELDS)[number];

/** What a masked secret looks like in a response. Its length says nothing about the secret. */
export const MASKED_SECRET = "********";
/** A value of only asterisks is a masked secret sent back unchanged: it keeps the stored secret. */
export const isMaskedSecret = (value: unknown): boolean => typeof value === "string" && /^\*+$/.test(value);

export const sourceNameSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9_-]+$/, "name may contain only letters, digits, underscore and hyphen");

const requiredText = z.string().min(1).max(4096);
const secretText = z.string().min(1).max(65536);

export const s3ConfigurationSchema = z.strictObject({
  access_key: secretText.optional(),
  secret_key: secretText.optional(),
  region: requiredText,
  bucket: requiredText,
  /**
   * An S3-compatible store instead of AWS (MinIO, DigitalOcean Spaces, R2): its base URL, scheme
   * and host (and port), nothing else. Objects are then addressed path-style.
   */
  endpoint: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .refine((url) => {
      const parsed = new URL(url);
      return (
        (parsed.pathname === "/" || parsed.pathname === "") &&
        !parsed.search &&
        !parsed.hash &&
        !parsed.username &&
        !parsed.password
      );
    }, "endpoint must be a scheme and host (and port) only")
    .optional(),
});
export const azureConfigurationSchema = z.strictObject({
  connection_string: secretText,
  container_name: requiredText,
});
export const googleCloudConfigurationSchema = z.strictObject({
  service_account_json: secretText,
  bucket_name: requiredText,
});
export const imageSourceConfigurationSchema = z.strictObject({
  base_url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .refine((url) => !url.endsWith("/"), "base_url must not end with a slash"),
  canonical_header: z.string().max(1024).optional(),
  forward_header: z.boolean().optional(),
});

/** The configuration schema of each source type. */
export const sourceConfigurationSchemas = {
  s3: s3ConfigurationSchema,
  azure: azureConfigurationSchema,
  google_cloud: googleCloudConfigurationSchema,
  image_source: imageSourceConfigurationSchema,
} as const satisfies Record<SourceType, z.ZodType>;

export type S3Configuration = z.infer<typeof s3ConfigurationSchema>;
export type AzureConfiguration = z.infer<typeof azureConfigurationSchema>;
export type GoogleCloudConfiguration = z.infer<typeof googleCloudConfigurationSchema>;
export type ImageSourceConfiguration = z.infer<typeof imageSourceConfigurationSchema>;
export type SourceConfiguration =
  | S3Configuration
  | AzureConfiguration
  | GoogleCloudConfiguration
  | ImageSourceConfiguration;

/** Raw configuration as received: an object; its shape is checked against the type. */
const configurationObjectSchema = z.record(z.string(), z.unknown());

/**
 * Endpoint 14 body. Configuration issues carry a path starting with `configuration`, which the
 * server maps to the spec's "Configuration is invalid for the specified type".
 */
export const createSourceBodySchema = z
  .object({
    name: sourceNameSchema,
    type: sourceTypeSchema,
    configuration: configurationObjectSchema,
  })
  .transform((body, ctx) => {
    const result = sourceConfigurationSchemas[body.type].safeParse(body.configuration);
    if (!result.success) {
      for (const issue of result.error.issues) {
        ctx.addIssue({ ...issue, path: ["configuration", ...issue.path] } as z.core.$ZodRawIssue);
      }
      return z.NEVER;
    }
    return { ...body, configuration: result.data as SourceConfiguration };
  });
export type CreateSourceBody = z.infer<typeof createSourceBodySchema>;
export type CreateSourceBodyInput = z.input<typeof createSourceBodySchema>;

/**
 * Endpoint 17 body. Every field optional; configuration fields are merged into the stored ones,
 * and the merged result is validated against the source's type by the server
 * (`sourceConfigurationSchemas[type]`). A new `name` keeps the old one as an alias whose delivery
 * URLs redirect to the new ones; `is_active` (Trove's own beyond the spec's two fields)
 * deactivates or reactivates the source's delivery URLs.
 */
export const updateSourceBodySchema = z.object({
  name: sourceNameSchema.optional(),
  configuration: configurationObjectSchema.optional(),
  is_active: z.boolean().optional(),
});
export type UpdateSourceBody = z.infer<typeof updateSourceBodySchema>;

const sourceBaseSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  /**
   * Trove's own: the workspace of the source, the first half of its delivery origin
   * (`{workspace_no}-{name}`). Optional so a response without it still parses.
   */
  workspace_no: z.string().optional(),
  is_active: z.boolean(),
  created_at: timestampSchema,
  updated_at: timestampSchema.nullable(),
});

/** A masked secret: only asterisks. A response schema that accepts nothing else catches a leak. */
const maskedSecret = z.string().regex(/^\*+$/, "secrets are masked in responses");

/** The configuration of each type as returned: secret fields masked. */
export const maskedSourceConfigurationSchemas = {
  s3: s3ConfigurationSchema.extend({
    access_key: maskedSecret.optional(),
    secret_key: maskedSecret.optional(),
  }),
  azure: azureConfigurationSchema.extend({ connection_string: maskedSecret }),
  google_cloud: googleCloudConfigurationSchema.extend({ service_account_json: maskedSecret }),
  image_source: imageSourceConfigurationSchema,
} as const satisfies Record<SourceType, z.ZodType>;

/** A source as returned: configuration shaped for its type, secrets masked. */
export const sourceSchema = z.discriminatedUnion("type", [
  sourceBaseSchema.extend({ type: z.literal("s3"), configuration: maskedSourceConfigurationSchemas.s3 }),
  sourceBaseSchema.extend({
    type: z.literal("azure"),
    configuration: maskedSourceConfigurationSchemas.azure,
  }),
  sourceBaseSchema.extend({
    type: z.literal("google_cloud"),
    configuration: maskedSourceConfigurationSchemas.google_cloud,
  }),
  sourceBaseSchema.extend({
    type: z.literal("image_source"),
    configuration: maskedSourceConfigurationSchemas.image_source,
  }),
]);
export type Source = z.infer<typeof sourceSchema>;

export const sourceResponseSchema = z.object({ success: z.literal(true), data: sourceSchema });
export type SourceResponse = z.infer<typeof sourceResponseSchema>;

/** Endpoint 15 query. */
export const listSourcesQuerySchema = z.object({
  page: pageQuerySchema,
  limit: limitQuerySchema(10),
  search: z.string().max(255).optional(),
  type: sourceTypeSchema.optional(),
});
export type ListSourcesQuery = z.infer<typeof listSourcesQuerySchema>;
export type ListSourcesQueryInput = z.input<typeof listSourcesQuerySchema>;

export const listSourcesResponseSchema = z.object({
  sources: z.array(sourceSchema),
  meta: z.object({
    page: z.number().int().min(1),
    limit: z.number().int().min(1),
    total: z.number().int().min(0),
    hasMore: z.boolean(),
  }),
});
export type ListSourcesResponse = z.infer<typeof listSourcesResponseSchema>;

export const sourceIdParamsSchema = z.object({ sourceId: uuidSchema });
