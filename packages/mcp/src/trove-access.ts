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
  /** The delivery host, for splitting a file's URL into workspace and path. */
  assetsUrl: string;
}

export interface AccessOptions {
  /** A key (`trove_sk_…`, `trove_pk_…`) or an upload token (`trove_ut_…`). */
  credential: string;
  /** The Trove API, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** The delivery host (TROVE_ASSETS_URL); default `{baseUrl}/assets`, as the server's default. */
  assetsUrl?: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

export function troveAccess({ credential, baseUrl, fetch, ...options }: AccessOptions): TroveAccess {
  const kind = credentialKindOf(credential);
  const assetsUrl = options.assetsUrl ?? `${baseUrl.replace(/\/+$/, "")}/assets`;
  if (kind === "upload-token") {
    return { kind, assetsUrl, uploads: createUploadClient({ token: credential, baseUrl, fetch }) };
  }
  const client = createClient({ apiKey: credential, baseUrl, assetsUrl, fetch });
  return { kind, assetsUrl, uploads: client, workspace: kind === "private" ? client : undefined };
}
