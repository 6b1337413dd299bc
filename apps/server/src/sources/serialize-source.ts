/**
 * A stored source row as the API returns it (`data` of endpoints 14, 16, 17; rows of 15):
 * snake_case fields, ISO timestamps, `updated_at` null until the first update, secrets masked,
 * and (Trove's own) the `workspace_no` of the key's workspace, so a client holding only a key can
 * build the source's delivery URLs (`{workspace_no}-{name}`).
 */
import type { Source as ApiSource } from "@trove/schema";
import type { Source } from "../generated/prisma/client.js";
import { maskConfiguration } from "./mask-configuration.js";

export function serializeSource(row: Source, workspaceNo: string): ApiSource {
  return {
    id: row.id,
    name: row.name,
    workspace_no: workspaceNo,
    type: row.type,
    configuration: maskConfiguration(row.type, row.configuration),
    is_active: row.isActive,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt ? row.updatedAt.toISOString() : null,
  } as ApiSource;
}
