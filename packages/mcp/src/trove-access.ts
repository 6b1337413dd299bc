import {
  createClient,
  createUploadClient,
  type NodeUploadInput,
  type TroveClient,
  type TroveUploadClient,
} from "@trove/sdk/node";
import { type CredentialKind, credentialKindOf } from "./credential-scope.js";

/**
 * One credential's clients: `uploads` for every kind, `workspace` (every endpoint) for a private
 * key only. Both are @trove/sdk clients, so every call has the SDK's retries and its error family.
 */
export interface TroveAccess {
  kind: CredentialKind;
  uploads: TroveUploadClient<NodeUploadInput>;
  workspace?: TroveClient<NodeUploadInput>;
}

export interface AccessOptions {
  /** A key (`trove_sk_…`, `trove_pk_…`) or an upload token (`trove_ut_…`). */
  credential: string;
  /** The Trove API, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

export function troveAccess({ credential, baseUrl, fetch }: AccessOptions): TroveAccess {
  const kind = credentialKindOf(credential);
  if (kind === "upload-token") {
    return { kind, uploads: createUploadClient({ token: credential, baseUrl, fetch }) };
  }
  const client = createClient({ apiKey: credential, baseUrl, fetch });
  return { kind, uploads: client, workspace: kind === "private" ? client : undefined };
}
