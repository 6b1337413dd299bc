// The admin API (/admin/v1) for the console's admin session. The session cookie (HttpOnly) is the
// credential and the CSRF header goes with every call, as for workspace sessions
// (session-client.ts); no admin token is ever in this page. Answers are checked with the shared
// schemas, so a drifted server shows an error instead of a half-drawn table.
import {
  type AdminKey,
  type AdminWorkspace,
  adminKeySchema,
  adminWorkspaceSchema,
  type CreatedKey,
  type CreateKeyBody,
  createdKeySchema,
  deleteWorkspaceResponseSchema,
  listKeysResponseSchema,
  listNamedTransformsResponseSchema,
  listWebhookEndpointsResponseSchema,
  listWorkspacesResponseSchema,
  namedTransformSchema,
  type UpdateWorkspaceBody,
  webhookEndpointSchema,
  webhookSecretResponseSchema,
} from "@trove/schema";
import type { ConsoleSession } from "./session-api.js";

/** A refused admin call: the server's message (shown as text), its status and error code. */
export class AdminApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errorCode: string | undefined,
  ) {
    super(message);
    this.name = "AdminApiError";
  }
}

/** One webhook delivery, as GET /admin/v1/workspaces/:no/webhook-deliveries lists it. */
export interface WebhookDelivery {
  id: string;
  event_type: string;
  endpoint_id: string | null;
  url: string;
  status: "pending" | "running" | "succeeded" | "failed";
  attempts: number;
  max_attempts: number;
  /** The receiver's last HTTP status; null: none (a network error, or not tried yet). */
  response_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** What the checks below need of a schema: zod's safeParse, without importing zod here. */
interface Checker<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}
type Checked<S> = S extends Checker<infer T> ? T : never;
export type WebhookEndpoint = Checked<typeof webhookEndpointSchema>;
export type NamedTransform = Checked<typeof namedTransformSchema>;
export type WebhookSecret = Checked<typeof webhookSecretResponseSchema>;
type WorkspaceList = Checked<typeof listWorkspacesResponseSchema>;
type DeletedWorkspace = Checked<typeof deleteWorkspaceResponseSchema>;

const DELIVERY_STATUSES = new Set(["pending", "running", "succeeded", "failed"]);
const isDelivery = (value: unknown): value is WebhookDelivery =>
  isRecord(value) &&
  typeof value.id === "string" &&
  typeof value.event_type === "string" &&
  typeof value.url === "string" &&
  typeof value.status === "string" &&
  DELIVERY_STATUSES.has(value.status) &&
  typeof value.attempts === "number" &&
  typeof value.max_attempts === "number" &&
  (value.response_status === null || typeof value.response_status === "number") &&
  (value.last_error === null || typeof value.last_error === "string");
const deliverySchema: Checker<WebhookDelivery> = {
  safeParse: (value) => (isDelivery(value) ? { success: true, data: value } : { success: false }),
};
const deliveryListSchema: Checker<WebhookDelivery[]> = {
  safeParse: (value) =>
    Array.isArray(value) && value.every(isDelivery) ? { success: true, data: value } : { success: false },
};

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** The calls the admin view makes, one per admin endpoint it uses. */
export interface AdminApi {
  listWorkspaces(page: number): Promise<WorkspaceList>;
  getWorkspace(workspaceNo: string): Promise<AdminWorkspace>;
  createWorkspace(name: string): Promise<AdminWorkspace>;
  updateWorkspace(workspaceNo: string, changes: UpdateWorkspaceBody): Promise<AdminWorkspace>;
  deleteWorkspace(workspaceNo: string, force: boolean): Promise<DeletedWorkspace>;
  listKeys(workspaceNo: string): Promise<AdminKey[]>;
  createKey(workspaceNo: string, body: CreateKeyBody): Promise<CreatedKey>;
  revokeKey(workspaceNo: string, keyId: string): Promise<AdminKey>;
  listEndpoints(workspaceNo: string): Promise<WebhookEndpoint[]>;
  addEndpoint(workspaceNo: string, url: string, events: string[]): Promise<WebhookEndpoint>;
  removeEndpoint(workspaceNo: string, endpointId: string): Promise<void>;
  rotateWebhookSecret(workspaceNo: string): Promise<WebhookSecret>;
  listDeliveries(workspaceNo: string): Promise<WebhookDelivery[]>;
  redeliver(workspaceNo: string, deliveryId: string): Promise<WebhookDelivery>;
  listTransforms(workspaceNo: string): Promise<NamedTransform[]>;
  setTransform(workspaceNo: string, name: string, transform: string): Promise<NamedTransform>;
  removeTransform(workspaceNo: string, name: string): Promise<void>;
}

/** The admin API on the console's own origin, authenticated by the admin session's cookie. */
export function createAdminSessionApi(session: ConsoleSession, onSessionEnded: () => void): AdminApi {
  const call = async <T>(schema: Checker<T> | null, method: Method, path: string, body?: unknown) => {
    const headers: Record<string, string> = {
      accept: "application/json",
      "x-csrf-token": session.csrf_token,
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
    });
    if (response.status === 401) onSessionEnded();
    const text = await response.text();
    const parsed: unknown = text === "" ? null : safeJson(text);
    if (!response.ok) {
      const envelope = isRecord(parsed) ? parsed : {};
      throw new AdminApiError(
        typeof envelope.message === "string" ? envelope.message : `The server answered ${response.status}`,
        response.status,
        typeof envelope.errorCode === "string" ? envelope.errorCode : undefined,
      );
    }
    if (schema === null) return undefined as T;
    // The admin API answers `{ success: true, data }`; the data is what the schema describes.
    const data = isRecord(parsed) && "data" in parsed ? parsed.data : parsed;
    const checked = schema.safeParse(data);
    if (!checked.success) {
      throw new AdminApiError(`Unexpected answer from ${method} ${path}`, response.status, undefined);
    }
    return checked.data;
  };
  const ws = (workspaceNo: string) => `/admin/v1/workspaces/${encodeURIComponent(workspaceNo)}`;
  return {
    listWorkspaces: (page) =>
      call(listWorkspacesResponseSchema, "GET", `/admin/v1/workspaces?page=${page}&limit=100`),
    getWorkspace: (no) => call(adminWorkspaceSchema, "GET", ws(no)),
    createWorkspace: (name) => call(adminWorkspaceSchema, "POST", "/admin/v1/workspaces", { name }),
    updateWorkspace: (no, changes) => call(adminWorkspaceSchema, "PATCH", ws(no), changes),
    deleteWorkspace: (no, force) =>
      call(deleteWorkspaceResponseSchema, "DELETE", `${ws(no)}?force=${force ? "true" : "false"}`),
    listKeys: async (no) => (await call(listKeysResponseSchema, "GET", `${ws(no)}/keys`)).keys,
    createKey: (no, body) => call(createdKeySchema, "POST", `${ws(no)}/keys`, body),
    revokeKey: (no, keyId) => call(adminKeySchema, "DELETE", `${ws(no)}/keys/${encodeURIComponent(keyId)}`),
    listEndpoints: async (no) =>
      (await call(listWebhookEndpointsResponseSchema, "GET", `${ws(no)}/webhook-endpoints`)).endpoints,
    addEndpoint: (no, url, events) =>
      call(webhookEndpointSchema, "POST", `${ws(no)}/webhook-endpoints`, { url, events }),
    removeEndpoint: (no, endpointId) =>
      call(null, "DELETE", `${ws(no)}/webhook-endpoints/${encodeURIComponent(endpointId)}`),
    rotateWebhookSecret: (no) =>
      call(webhookSecretResponseSchema, "POST", `${ws(no)}/webhook-secret/rotate`, {}),
    listDeliveries: (no) => call(deliveryListSchema, "GET", `${ws(no)}/webhook-deliveries?limit=50`),
    redeliver: (no, deliveryId) =>
      call(
        deliverySchema,
        "POST",
        `${ws(no)}/webhook-deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
        {},
      ),
    listTransforms: async (no) =>
      (await call(listNamedTransformsResponseSchema, "GET", `${ws(no)}/transforms`)).transforms,
    setTransform: (no, name, transform) =>
      call(namedTransformSchema, "PUT", `${ws(no)}/transforms/${encodeURIComponent(name)}`, { transform }),
    removeTransform: (no, name) => call(null, "DELETE", `${ws(no)}/transforms/${encodeURIComponent(name)}`),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
