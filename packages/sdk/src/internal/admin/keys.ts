import type { AdminKey, CreatedKey } from "@trove/schema";
import { callEndpoint, type EndpointBody } from "../call-endpoint.js";
import type { ApiClient } from "../request/index.js";
import type { RequestOptions } from "../resources/files.js";

export type CreateKeyBody = EndpointBody<"adminCreateKey">;

export interface AdminKeysResource {
  /**
   * A new key of the workspace, usable at once. `key` is its secret, in this answer only: store it
   * now, the server keeps a hash. `expires_at` (ISO 8601, in the future) ends it with 401
   * `KEY_EXPIRED`; a public key may carry an upload `policy`.
   */
  create(workspaceNo: string, body: CreateKeyBody, options?: RequestOptions): Promise<CreatedKey>;
  /** The workspace's keys, revoked ones included, without their secrets (`prefix` tells them apart). */
  list(workspaceNo: string, options?: RequestOptions): Promise<AdminKey[]>;
  /** The key gets 401 from the next request on; revoking it again answers the same record. */
  revoke(workspaceNo: string, keyId: string, options?: RequestOptions): Promise<AdminKey>;
}

export function adminKeysResource(client: ApiClient): AdminKeysResource {
  return {
    create: (workspaceNo, body, options = {}) =>
      callEndpoint(client, "adminCreateKey", { params: { workspaceNo }, json: body, signal: options.signal }),
    list: async (workspaceNo, options = {}) =>
      (await callEndpoint(client, "adminListKeys", { params: { workspaceNo }, signal: options.signal })).keys,
    revoke: (workspaceNo, keyId, options = {}) =>
      callEndpoint(client, "adminRevokeKey", { params: { workspaceNo, keyId }, signal: options.signal }),
  };
}
