/**
 * Rows as the admin API shows them (`@trove/schema`'s admin resources): snake_case, ISO dates, and
 * never a key's hash or a secret beyond the ones the endpoint exists to show.
 */
import type { AdminKey, AdminWorkspace } from "@trove/schema";
import type { ApiKey, NamedTransform, WebhookEndpoint, Workspace } from "../generated/prisma/client.js";
import { storedPolicy } from "../keys/upload-tokens.js";
import { workspaceEmbeddedMetadata } from "../uploads/embedded-metadata-rule.js";

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function workspaceResource(row: Workspace, fileCount: number, storageBytes: number): AdminWorkspace {
  return {
    workspace_no: row.workspaceNo,
    name: row.name,
    disabled_at: iso(row.disabledAt),
    strict_transforms: row.strictTransforms,
    embedded_metadata: workspaceEmbeddedMetadata(row.embeddedMetadata),
    file_count: fileCount,
    storage_bytes: storageBytes,
    max_files: row.maxFiles === null ? null : Number(row.maxFiles),
    max_storage_bytes: row.maxStorageBytes === null ? null : Number(row.maxStorageBytes),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function keyResource(row: ApiKey): AdminKey {
  return {
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    type: row.type,
    policy: row.policy === null ? null : storedPolicy(row.policy),
    created_at: row.createdAt.toISOString(),
    last_used_at: iso(row.lastUsedAt),
    expires_at: iso(row.expiresAt),
    revoked_at: iso(row.revokedAt),
  };
}

export function endpointResource(row: WebhookEndpoint) {
  return { id: row.id, url: row.url, events: row.eventTypes, created_at: row.createdAt.toISOString() };
}

export function transformResource(row: NamedTransform) {
  return { name: row.name, transform: row.transform, created_at: row.createdAt.toISOString() };
}
