/**
 * Resource schemas of the admin API (`/admin/v1/...`, ./admin-endpoints.ts): workspaces, their
 * API keys, webhook secret and endpoints, and named transforms. The API is off unless the server
 * has an admin token (TROVE_ADMIN_TOKEN); it authenticates with that token, never a workspace key.
 */
import * as z from "zod";
import { shortNoSchema, timestampSchema, uuidSchema } from "./common.js";
import { embeddedMetadataModeSchema } from "./embedded-metadata.js";
import { uploadPolicySchema } from "./upload-tokens.js";

export const workspaceNoParamsSchema = z.object({ workspaceNo: shortNoSchema });

const workspaceNameSchema = z.string().trim().min(1).max(255);
const quotaSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const adminWorkspaceSchema = z.object({
  workspace_no: z.string(),
  name: z.string(),
  /** Set while disabled: its keys and upload tokens get 401, its files are not served. */
  disabled_at: timestampSchema.nullable(),
  /** The delivery host renders only named transforms and signed URLs. */
  strict_transforms: z.boolean(),
  /**
   * What becomes of uploaded images' embedded metadata (./embedded-metadata.ts), for every
   * credential; null: the default (public keys and upload tokens strip, private keys keep).
   */
  embedded_metadata: embeddedMetadataModeSchema.nullable(),
  file_count: z.number().int(),
  /** Bytes stored: originals, variants, video outputs and cached origin copies (`GET /api/v1/usage`). */
  storage_bytes: z.number().int(),
  /** Quotas (null: unlimited): an upload past one is refused with 403 QUOTA_EXCEEDED. */
  max_files: z.number().int().nullable(),
  /** Bytes of originals, variants, video outputs and cached origin copies (`GET /api/v1/usage`). */
  max_storage_bytes: z.number().int().nullable(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type AdminWorkspace = z.infer<typeof adminWorkspaceSchema>;

export const createWorkspaceBodySchema = z.strictObject({
  name: workspaceNameSchema,
  /** Lowercase letters and digits (it appears in delivery URLs); unset: a random one. */
  workspace_no: z
    .string()
    .regex(/^[a-z0-9]{3,32}$/, "must be 3 to 32 lowercase letters and digits")
    .optional(),
});
export type CreateWorkspaceBody = z.input<typeof createWorkspaceBodySchema>;

export const listWorkspacesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const listWorkspacesResponseSchema = z.object({
  workspaces: z.array(adminWorkspaceSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});

export const updateWorkspaceBodySchema = z
  .strictObject({
    name: workspaceNameSchema.optional(),
    /** true disables (keys 401, files 404), false enables again. */
    disabled: z.boolean().optional(),
    strict_transforms: z.boolean().optional(),
    /** null goes back to the default rule. */
    embedded_metadata: embeddedMetadataModeSchema.nullable().optional(),
    /** null removes the quota. */
    max_files: quotaSchema.nullable().optional(),
    max_storage_bytes: quotaSchema.nullable().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: "give name, disabled, strict_transforms, embedded_metadata, max_files or max_storage_bytes",
  });
export type UpdateWorkspaceBody = z.input<typeof updateWorkspaceBodySchema>;

export const deleteWorkspaceQuerySchema = z.object({
  /** `true`: delete a workspace that still holds files (rows and objects go through the job queue). */
  force: z.enum(["true", "false"]).default("false"),
});

export const deleteWorkspaceResponseSchema = z.object({
  workspace_no: z.string(),
  /** `deleted`: gone now (it held no files); `deleting`: disabled now, removed by a background job. */
  status: z.enum(["deleted", "deleting"]),
  file_count: z.number().int(),
});

export const adminKeySchema = z.object({
  id: uuidSchema,
  /** The visible start of the key (`trove_sk_AbCd1234`); never enough to use it. */
  prefix: z.string(),
  name: z.string().nullable(),
  type: z.enum(["public", "private"]),
  policy: uploadPolicySchema.nullable(),
  created_at: timestampSchema,
  last_used_at: timestampSchema.nullable(),
  expires_at: timestampSchema.nullable(),
  revoked_at: timestampSchema.nullable(),
});
export type AdminKey = z.infer<typeof adminKeySchema>;

export const createKeyBodySchema = z
  .strictObject({
    type: z.enum(["public", "private"]),
    name: z.string().trim().min(1).max(255).optional(),
    /** After this instant the key gets 401 KEY_EXPIRED; must lie in the future. */
    expires_at: timestampSchema.optional(),
    /** Public keys only: what uploads made with the key may store. */
    policy: uploadPolicySchema.optional(),
  })
  .refine((body) => body.policy === undefined || body.type === "public", {
    message: "only public keys carry an upload policy",
    path: ["policy"],
  })
  .refine((body) => body.expires_at === undefined || Date.parse(body.expires_at) > Date.now(), {
    message: "must lie in the future",
    path: ["expires_at"],
  });
export type CreateKeyBody = z.input<typeof createKeyBodySchema>;

/** The new key in full: shown once, never again. */
export const createdKeySchema = adminKeySchema.extend({ key: z.string() });
export type CreatedKey = z.infer<typeof createdKeySchema>;

export const listKeysResponseSchema = z.object({ keys: z.array(adminKeySchema) });

export const keyIdParamsSchema = workspaceNoParamsSchema.extend({ keyId: uuidSchema });

export const webhookSecretResponseSchema = z.object({
  secret: z.string(),
  /** While a rotation's grace runs: when the previous secret stops signing deliveries. */
  previous_expires_at: timestampSchema.nullable(),
});

/** Longest grace of a rotation: a year. */
export const MAX_WEBHOOK_GRACE_SECONDS = 365 * 86_400;

export const rotateWebhookSecretBodySchema = z.strictObject({
  /** How long the replaced secret keeps signing (default a day; 0: it stops at once). */
  grace_seconds: z.number().int().min(0).max(MAX_WEBHOOK_GRACE_SECONDS).default(86_400),
});

export const webhookEndpointSchema = z.object({
  id: uuidSchema,
  url: z.string(),
  events: z.array(z.string()),
  created_at: timestampSchema,
});

export const createWebhookEndpointBodySchema = z.strictObject({
  url: z.string().min(1).max(2048),
  /** Event types, or `["*"]` (the default) for all. */
  events: z.array(z.string().max(64)).min(1).max(32).default(["*"]),
});

export const listWebhookEndpointsResponseSchema = z.object({ endpoints: z.array(webhookEndpointSchema) });

export const webhookEndpointParamsSchema = workspaceNoParamsSchema.extend({ endpointId: uuidSchema });

export const namedTransformSchema = z.object({
  /** Without its `t_`. */
  name: z.string(),
  /** The canonical transform `t_<name>` stands for. */
  transform: z.string(),
  created_at: timestampSchema,
});

/** `t_card` and `card` name the same transform; the server checks the characters. */
export const transformNameParamsSchema = workspaceNoParamsSchema.extend({ name: z.string().min(1).max(66) });

export const setNamedTransformBodySchema = z.strictObject({ transform: z.string().min(1).max(2048) });

export const listNamedTransformsResponseSchema = z.object({ transforms: z.array(namedTransformSchema) });
