import type { oas31 } from "zod-openapi";
import type { KeyRequirement } from "../endpoints.js";

export const DEFAULT_SERVER_URL = "http://localhost:3000";

/** `{base_url}` is the API host; `{app_url}` is a second host that serves the same paths. */
export const OPENAPI_SERVERS: oas31.ServerObject[] = [
  {
    url: "{base_url}",
    description: "The API host",
    variables: { base_url: { default: DEFAULT_SERVER_URL, description: "Base URL of the API host" } },
  },
  {
    url: "{app_url}",
    description: "A second API host serving the same paths",
    variables: { app_url: { default: DEFAULT_SERVER_URL, description: "Base URL of the app host" } },
  },
];

/** The part-upload gateway; it runs in the API process by default, or on a host of its own. */
export const GATEWAY_SERVERS: oas31.ServerObject[] = [
  {
    url: "{gateway_url}",
    description: "Trove's part-upload gateway",
    variables: { gateway_url: { default: DEFAULT_SERVER_URL, description: "Base URL of the part gateway" } },
  },
];

export const SECURITY_SCHEMES = {
  apiKey: {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description: "A public key (uploads only) or a private key (every endpoint)",
  },
  bearerAuth: {
    type: "http",
    scheme: "bearer",
    description: "The same API key, sent as `Authorization: Bearer <API_KEY>`",
  },
  adminToken: {
    type: "http",
    scheme: "bearer",
    description: "The admin API's token, TROVE_ADMIN_TOKEN: `Authorization: Bearer <TROVE_ADMIN_TOKEN>`",
  },
} as const satisfies Record<string, oas31.SecuritySchemeObject>;

/** Either scheme is enough; an unkeyed request (the signed part URL) needs neither. */
export function securityFor(key: KeyRequirement): oas31.SecurityRequirementObject[] {
  if (key === "none") return [];
  if (key === "admin") return [{ adminToken: [] }];
  return [{ apiKey: [] }, { bearerAuth: [] }];
}
