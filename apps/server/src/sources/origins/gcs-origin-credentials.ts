/**
 * The service account key of a google_cloud source, parsed once per reader. The key file's JSON is
 * customer-written data: every field is checked, and nothing from it is ever quoted in an error
 * (a half-pasted key in a message or a log line is still a leaked key).
 */
import { createPrivateKey, type KeyObject } from "node:crypto";
import { originError } from "./origin-error.js";

/** Google's OAuth 2.0 token endpoint, the `token_uri` of every key Google issues. */
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";

export interface ServiceAccount {
  clientEmail: string;
  privateKey: KeyObject;
  /** The key file's `token_uri`, unchecked: see `tokenUrlFor`. */
  tokenUri: string | undefined;
}

/** Parses a key file's contents; anything unusable fails with `denied`, naming the field at most. */
export function parseServiceAccount(json: string, sourceName: string): ServiceAccount {
  const refuse = (cause: string) => originError("denied", sourceName, cause);
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw refuse("service_account_json is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw refuse("service_account_json is not a JSON object");
  }
  const fields = parsed as Record<string, unknown>;
  if (fields.type !== undefined && fields.type !== "service_account") {
    throw refuse("service_account_json is not a service account key");
  }
  const clientEmail = fields.client_email;
  if (typeof clientEmail !== "string" || clientEmail === "") {
    throw refuse("service_account_json has no client_email");
  }
  if (typeof fields.private_key !== "string" || fields.private_key === "") {
    throw refuse("service_account_json has no private_key");
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(fields.private_key);
  } catch {
    throw refuse("service_account_json's private_key is not a PEM private key");
  }
  if (privateKey.asymmetricKeyType !== "rsa") {
    throw refuse("service_account_json's private_key is not an RSA key");
  }
  const tokenUri = fields.token_uri;
  if (tokenUri !== undefined && typeof tokenUri !== "string") {
    throw refuse("service_account_json's token_uri is not a string");
  }
  return { clientEmail, privateKey, tokenUri };
}

/**
 * Where tokens are asked for. The key's `token_uri` is data its holder wrote, so by default it is
 * ignored and Google's token endpoint is used: a customer cannot make Trove post to a host of their
 * choosing. Only when the operator has pointed the reader at another API endpoint (a test server or
 * a GCS-compatible store, which has its own token endpoint) is `token_uri` followed, and then, like
 * every connection of the reader, through the address guard.
 */
export function tokenUrlFor(
  account: ServiceAccount,
  apiEndpoint: string | undefined,
  sourceName: string,
): URL {
  if (apiEndpoint === undefined || account.tokenUri === undefined) return new URL(GOOGLE_TOKEN_URL);
  let url: URL;
  try {
    url = new URL(account.tokenUri);
  } catch {
    throw originError("denied", sourceName, "service_account_json's token_uri is not a URL");
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username !== "" || url.password !== "") {
    throw originError("denied", sourceName, "service_account_json's token_uri must be a plain http(s) URL");
  }
  return url;
}
