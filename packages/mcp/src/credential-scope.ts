import { API_ROUTES, type ApiRoute, keyKindOf } from "@trove/schema/zod-free";

/**
 * What a credential is, read from its prefix (the rule the server issues keys by, `keyKindOf`):
 * a private key may call every endpoint of the API; a public key and an upload token only those
 * the route table marks `any` (the uploads) or `none` (multipart parts, signed). Anything else is treated as the least powerful kind: the
 * server decides anyway, the tool list is a courtesy to the model.
 */
export type CredentialKind = "private" | "public" | "upload-token";

const UPLOAD_TOKEN_PREFIX = "trove_ut_";

export function credentialKindOf(credential: string): CredentialKind {
  const kind = keyKindOf(credential);
  if (kind === "private" || kind === "public") return kind;
  // An unknown prefix gets the upload tools only: never more than the server would allow it.
  return credential.startsWith(UPLOAD_TOKEN_PREFIX) ? "upload-token" : "public";
}

export type OperationId = ApiRoute["operationId"];

const KEY_BY_OPERATION = new Map<string, ApiRoute["key"]>(
  API_ROUTES.map((route) => [route.operationId, route.key]),
);

/** Whether `kind` may call every operation in `operations` (a tool's endpoints). */
export function mayCall(kind: CredentialKind, operations: readonly OperationId[]): boolean {
  return operations.every((operation) => {
    const key = KEY_BY_OPERATION.get(operation);
    if (key === undefined) throw new Error(`unknown operation ${operation}`);
    // `none`: a signed URL is the credential (multipart parts), whoever started the upload.
    if (key === "none" || key === "any") return true;
    return key === "private" && kind === "private";
  });
}
