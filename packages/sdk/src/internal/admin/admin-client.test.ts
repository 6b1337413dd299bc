import type { AdminKey, AdminWorkspace, CreatedKey } from "@trove/schema";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import { BASE_URL, useMswServer } from "../../../test/support/msw-server.js";
import {
  AuthenticationError,
  ConflictError,
  InvalidResponseError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TroveError,
  ValidationError,
} from "../errors.js";
import { type AdminClientOptions, createAdminClient, type TroveAdminClient } from "./create-admin-client.js";
import type { CreateKeyBody } from "./keys.js";
import type { UpdateWorkspaceBody } from "./workspaces.js";

const server = useMswServer();
const TOKEN = "admin-token-0123456789abcdef0123456789abcdef";
const CREATED = "2026-01-02T03:04:05.000Z";
const KEY_ID = "0190f1c2-4b5a-7c3d-8e9f-0a1b2c3d4e5f";
const ENDPOINT_ID = "0190f1c2-4b5a-7c3d-8e9f-0a1b2c3d4e60";

const workspace: AdminWorkspace = {
  workspace_no: "acme",
  name: "Acme",
  disabled_at: null,
  strict_transforms: false,
  embedded_metadata: null,
  file_count: 0,
  storage_bytes: 0,
  max_files: null,
  max_storage_bytes: null,
  created_at: CREATED,
  updated_at: CREATED,
};
const key: AdminKey = {
  id: KEY_ID,
  prefix: "trove_sk_AbCd1234",
  name: "ci",
  type: "private",
  policy: null,
  created_at: CREATED,
  last_used_at: null,
  expires_at: null,
  revoked_at: null,
};
const createdKey: CreatedKey = { ...key, key: "trove_sk_AbCd1234efgh5678ijkl9012mnop3456" };
const endpoint = {
  id: ENDPOINT_ID,
  url: "http://127.0.0.1:9/trove",
  events: ["*"],
  created_at: CREATED,
};
const secret = { secret: "whsec_abc", previous_expires_at: null };
const transform = { name: "card", transform: "w_400,h_300", created_at: CREATED };

function admin(overrides: Partial<AdminClientOptions> = {}): TroveAdminClient {
  return createAdminClient({ adminToken: TOKEN, baseUrl: BASE_URL, maxRetryDelay: 0, ...overrides });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

interface Seen {
  method: string;
  path: string;
  search: string;
  authorization: string | null;
  apiKey: string | null;
  requestId: string | null;
  body: unknown;
}

/** Answers every admin request with `respond(path)` and records what arrived. */
function recordAdminRequests(respond: (method: string, path: string) => Response): Seen[] {
  const seen: Seen[] = [];
  server.use(
    http.all(`${BASE_URL}/admin/v1/*`, async ({ request }) => {
      const url = new URL(request.url);
      const text = await request.text();
      seen.push({
        method: request.method,
        path: url.pathname,
        search: url.search,
        authorization: request.headers.get("authorization"),
        apiKey: request.headers.get("x-api-key"),
        requestId: request.headers.get("x-request-id"),
        body: text === "" ? undefined : JSON.parse(text),
      });
      return respond(request.method, url.pathname);
    }),
  );
  return seen;
}

/** The admin error envelope, as the server sends it for every status. */
function adminError(status: number, error: string, errorCode: string, message: string, extra = {}) {
  return HttpResponse.json({ error, errorCode, message, ...extra }, { status });
}

describe("createAdminClient: the 16 admin operations", () => {
  // Each call, the request it must send, and the answer it gets back (what the method returns).
  const W = "/admin/v1/workspaces";
  const cases: Array<{
    name: string;
    call: (client: TroveAdminClient) => Promise<unknown>;
    method: string;
    path: string;
    search?: string;
    body?: unknown;
    status?: number;
    answer?: unknown;
    returns: unknown;
  }> = [
    {
      name: "workspaces.create",
      call: (c) => c.workspaces.create({ name: "Acme", workspace_no: "acme" }),
      method: "POST",
      path: W,
      body: { name: "Acme", workspace_no: "acme" },
      status: 201,
      answer: workspace,
      returns: workspace,
    },
    {
      name: "workspaces.list",
      call: (c) => c.workspaces.list({ page: 2, limit: 10 }),
      method: "GET",
      path: W,
      search: "?page=2&limit=10",
      answer: { workspaces: [workspace], total: 11, page: 2, limit: 10 },
      returns: { workspaces: [workspace], total: 11, page: 2, limit: 10 },
    },
    {
      name: "workspaces.get",
      call: (c) => c.workspaces.get("acme"),
      method: "GET",
      path: `${W}/acme`,
      answer: workspace,
      returns: workspace,
    },
    {
      name: "workspaces.update",
      call: (c) => c.workspaces.update("acme", { name: "Acme Inc", strict_transforms: true }),
      method: "PATCH",
      path: `${W}/acme`,
      body: { name: "Acme Inc", strict_transforms: true },
      answer: workspace,
      returns: workspace,
    },
    {
      name: "workspaces.disable",
      call: (c) => c.workspaces.disable("acme"),
      method: "PATCH",
      path: `${W}/acme`,
      body: { disabled: true },
      answer: { ...workspace, disabled_at: CREATED },
      returns: { ...workspace, disabled_at: CREATED },
    },
    {
      name: "workspaces.enable",
      call: (c) => c.workspaces.enable("acme"),
      method: "PATCH",
      path: `${W}/acme`,
      body: { disabled: false },
      answer: workspace,
      returns: workspace,
    },
    {
      name: "workspaces.delete",
      call: (c) => c.workspaces.delete("acme"),
      method: "DELETE",
      path: `${W}/acme`,
      search: "",
      answer: { workspace_no: "acme", status: "deleted", file_count: 0 },
      returns: { workspace_no: "acme", status: "deleted", file_count: 0 },
    },
    {
      name: "workspaces.delete({ force: true })",
      call: (c) => c.workspaces.delete("acme", { force: true }),
      method: "DELETE",
      path: `${W}/acme`,
      search: "?force=true",
      answer: { workspace_no: "acme", status: "deleting", file_count: 3 },
      returns: { workspace_no: "acme", status: "deleting", file_count: 3 },
    },
    {
      name: "keys.create",
      call: (c) => c.keys.create("acme", { type: "private", name: "ci" }),
      method: "POST",
      path: `${W}/acme/keys`,
      body: { type: "private", name: "ci" },
      status: 201,
      answer: createdKey,
      returns: createdKey,
    },
    {
      name: "keys.list",
      call: (c) => c.keys.list("acme"),
      method: "GET",
      path: `${W}/acme/keys`,
      answer: { keys: [key] },
      returns: [key],
    },
    {
      name: "keys.revoke",
      call: (c) => c.keys.revoke("acme", KEY_ID),
      method: "DELETE",
      path: `${W}/acme/keys/${KEY_ID}`,
      answer: { ...key, revoked_at: CREATED },
      returns: { ...key, revoked_at: CREATED },
    },
    {
      name: "webhooks.secret",
      call: (c) => c.webhooks.secret("acme"),
      method: "GET",
      path: `${W}/acme/webhook-secret`,
      answer: secret,
      returns: secret,
    },
    {
      name: "webhooks.rotateSecret",
      call: (c) => c.webhooks.rotateSecret("acme", { graceSeconds: 60 }),
      method: "POST",
      path: `${W}/acme/webhook-secret/rotate`,
      body: { grace_seconds: 60 },
      answer: { secret: "whsec_new", previous_expires_at: CREATED },
      returns: { secret: "whsec_new", previous_expires_at: CREATED },
    },
    {
      name: "webhooks.rotateSecret without a grace",
      call: (c) => c.webhooks.rotateSecret("acme"),
      method: "POST",
      path: `${W}/acme/webhook-secret/rotate`,
      body: {},
      answer: secret,
      returns: secret,
    },
    {
      name: "webhooks.endpoints.add",
      call: (c) => c.webhooks.endpoints.add("acme", { url: endpoint.url }),
      method: "POST",
      path: `${W}/acme/webhook-endpoints`,
      body: { url: endpoint.url },
      status: 201,
      answer: endpoint,
      returns: endpoint,
    },
    {
      name: "webhooks.endpoints.list",
      call: (c) => c.webhooks.endpoints.list("acme"),
      method: "GET",
      path: `${W}/acme/webhook-endpoints`,
      answer: { endpoints: [endpoint] },
      returns: [endpoint],
    },
    {
      name: "webhooks.endpoints.remove",
      call: (c) => c.webhooks.endpoints.remove("acme", ENDPOINT_ID),
      method: "DELETE",
      path: `${W}/acme/webhook-endpoints/${ENDPOINT_ID}`,
      status: 204,
      returns: undefined,
    },
    {
      name: "transforms.set",
      call: (c) => c.transforms.set("acme", "t_card", "w_400,h_300"),
      method: "PUT",
      path: `${W}/acme/transforms/t_card`,
      body: { transform: "w_400,h_300" },
      answer: transform,
      returns: transform,
    },
    {
      name: "transforms.list",
      call: (c) => c.transforms.list("acme"),
      method: "GET",
      path: `${W}/acme/transforms`,
      answer: { transforms: [transform] },
      returns: [transform],
    },
    {
      name: "transforms.remove",
      call: (c) => c.transforms.remove("acme", "card"),
      method: "DELETE",
      path: `${W}/acme/transforms/card`,
      status: 204,
      returns: undefined,
    },
  ];

  it.each(cases)(
    "$name sends $method $path with the token as a bearer token, never as x-api-key",
    async (c) => {
      const seen = recordAdminRequests(() =>
        c.answer === undefined
          ? new HttpResponse(null, { status: c.status ?? 204 })
          : HttpResponse.json(c.answer, { status: c.status ?? 200 }),
      );
      expect(await c.call(admin())).toEqual(c.returns);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({
        method: c.method,
        path: c.path,
        authorization: `Bearer ${TOKEN}`,
        apiKey: null,
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        body: c.body,
      });
      if (c.search !== undefined) expect(seen[0]?.search).toBe(c.search);
    },
  );

  it("encodes path parameters: a name cannot reach another route", async () => {
    const seen = recordAdminRequests(() => new HttpResponse(null, { status: 204 }));
    await admin().transforms.remove("acme", "../keys");
    expect(seen[0]?.path).toBe("/admin/v1/workspaces/acme/transforms/..%2Fkeys");
    await expect(admin().workspaces.get("")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(seen).toHaveLength(1);
  });

  it("listAll walks the pages until the total is reached", async () => {
    const seen = recordAdminRequests((_, path) => {
      expect(path).toBe("/admin/v1/workspaces");
      const page = seen.length;
      const rows =
        page < 3
          ? [
              { ...workspace, workspace_no: `w${page}a` },
              { ...workspace, workspace_no: `w${page}b` },
            ]
          : [{ ...workspace, workspace_no: "w3a" }];
      return HttpResponse.json({ workspaces: rows, total: 5, page, limit: 2 });
    });
    const numbers: string[] = [];
    for await (const row of admin().workspaces.listAll({ limit: 2 })) numbers.push(row.workspace_no);
    expect(numbers).toEqual(["w1a", "w1b", "w2a", "w2b", "w3a"]);
    expect(seen.map((request) => request.search)).toEqual([
      "?limit=2&page=1",
      "?limit=2&page=2",
      "?limit=2&page=3",
    ]);
  });

  it("types bodies and answers from the schema's endpoint entries", () => {
    expectTypeOf<CreateKeyBody>().toExtend<{ type: "public" | "private"; name?: string | undefined }>();
    expectTypeOf<UpdateWorkspaceBody>().toExtend<{ disabled?: boolean | undefined }>();
    expectTypeOf<ReturnType<TroveAdminClient["keys"]["create"]>>().toEqualTypeOf<Promise<CreatedKey>>();
    expectTypeOf<ReturnType<TroveAdminClient["keys"]["list"]>>().toEqualTypeOf<Promise<AdminKey[]>>();
    const typesOnly = (client: TroveAdminClient) => [
      // @ts-expect-error: a key type the API does not know
      client.keys.create("acme", { type: "secret" }),
      // @ts-expect-error: a field the body does not have
      client.workspaces.update("acme", { archived: true }),
    ];
    expect(typesOnly).toBeTypeOf("function");
  });
});

describe("createAdminClient: errors and retries", () => {
  it("maps the admin envelope to the SDK's error classes, with errorCode as code", async () => {
    const refusals = [
      [401, "Unauthorized", "UNAUTHORIZED", "Invalid or missing admin token", AuthenticationError],
      [400, "Validation failed", "VALIDATION_FAILED", "name: Too small", ValidationError],
      [404, "Not Found", "NOT_FOUND", "Workspace not found", NotFoundError],
      [409, "Conflict", "WORKSPACE_NOT_EMPTY", "The workspace holds 3 file(s)", ConflictError],
    ] as const;
    for (const [status, error, errorCode, message, ErrorClass] of refusals) {
      const seen = recordAdminRequests(() => adminError(status, error, errorCode, message));
      const failure = await admin()
        .workspaces.delete("acme")
        .catch((caught: unknown) => caught);
      expect(failure).toBeInstanceOf(ErrorClass);
      expect(failure).toBeInstanceOf(TroveError);
      expect(failure).toMatchObject({
        status,
        code: errorCode,
        message: `${error}: ${message}`,
        body: { error, errorCode, message },
      });
      expect(seen).toHaveLength(1); // a refusal is not sent again
    }
  });

  it("a server with the admin API off (404 without errorCode) is a NotFoundError NOT_FOUND", async () => {
    server.use(
      http.get(`${BASE_URL}/admin/v1/workspaces`, () =>
        HttpResponse.json(
          { error: "Not Found", message: "Route GET /admin/v1/workspaces not found" },
          { status: 404 },
        ),
      ),
    );
    const failure = await admin()
      .workspaces.list()
      .catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(NotFoundError);
    expect(failure).toMatchObject({ code: "NOT_FOUND", status: 404 });
  });

  it("retries a 429 even for a POST, after the wait the server asked for", async () => {
    const seen = recordAdminRequests(() =>
      seen.length === 1
        ? adminError(429, "Too Many Requests", "RATE_LIMITED", "Slow down", { retryAfterSeconds: 0 })
        : HttpResponse.json(workspace, { status: 201 }),
    );
    expect(await admin().workspaces.create({ name: "Acme" })).toEqual(workspace);
    expect(seen.map((request) => request.method)).toEqual(["POST", "POST"]);
    // The same request id across the retry, so the server's log shows them together.
    expect(seen[1]?.requestId).toBe(seen[0]?.requestId);
    expect(seen[1]?.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("gives up on 429 after maxRetries with a RateLimitError", async () => {
    const seen = recordAdminRequests(() =>
      adminError(429, "Too Many Requests", "RATE_LIMITED", "Slow down", { retryAfterSeconds: 0 }),
    );
    const failure = await admin({ maxRetries: 1 })
      .keys.list("acme")
      .catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(RateLimitError);
    expect(seen).toHaveLength(2);
  });

  it("retries a 503 for idempotent methods only: a POST may have been carried out", async () => {
    const unavailable = () => adminError(503, "Service Unavailable", "SERVICE_UNAVAILABLE", "Starting");
    let seen = recordAdminRequests(() => (seen.length === 1 ? unavailable() : HttpResponse.json(secret)));
    expect(await admin().webhooks.secret("acme")).toEqual(secret);
    expect(seen).toHaveLength(2);

    server.resetHandlers();
    seen = recordAdminRequests(unavailable);
    const failure = await admin()
      .keys.create("acme", { type: "private" })
      .catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(ServerError);
    expect(seen).toHaveLength(1);
  });

  it("a 2xx that does not match the schema is an InvalidResponseError", async () => {
    recordAdminRequests(() => HttpResponse.json({ keys: [{ ...key, id: 42 }] }));
    const failure = await admin()
      .keys.list("acme")
      .catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(InvalidResponseError);
    expect(failure).toMatchObject({ code: "INVALID_RESPONSE" });
    expect((failure as Error).message).toContain("adminListKeys");
  });

  it("does not follow a redirect with the token", async () => {
    const seen = recordAdminRequests(
      () => new HttpResponse(null, { status: 302, headers: { location: "https://elsewhere.test/steal" } }),
    );
    const failure = await admin()
      .workspaces.list()
      .catch((caught: unknown) => caught);
    expect(failure).toMatchObject({ code: "REDIRECT_REFUSED", status: 302 });
    expect(seen).toHaveLength(1);
  });
});

describe("createAdminClient: entries", () => {
  it("only the Node build exports it: no browser entry carries the client that sends the token", async () => {
    const entries = {
      node: await import("../../node.js"),
      index: await import("../../index.js"),
      upload: await import("../../upload.js"),
    };
    expect(typeof entries.node.createAdminClient).toBe("function");
    expect("createAdminClient" in entries.index).toBe(false);
    expect("createAdminClient" in entries.upload).toBe(false);
  });
});

describe("createAdminClient: options", () => {
  it("wants a token and an absolute baseUrl", () => {
    for (const adminToken of ["", "   ", undefined, 42]) {
      expect(() => admin({ adminToken: adminToken as string })).toThrow(
        expect.objectContaining({ code: "INVALID_ARGUMENT", message: "adminToken is required" }),
      );
    }
    expect(() => admin({ baseUrl: "api.trove.test" })).toThrow(/baseUrl/);
  });

  it("is refused in a page, with no opt-in: the token would be readable by anyone", () => {
    vi.stubGlobal("document", {});
    expect(() => admin()).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });

  it("sends the caller's headers, but a caller's authorization header never replaces the token", async () => {
    let tenant: string | null = null;
    const seen = recordAdminRequests(() => HttpResponse.json({ keys: [] }));
    server.events.on("request:start", ({ request }) => {
      tenant = request.headers.get("x-tenant");
    });
    await admin({ headers: { "x-tenant": "ops", authorization: "Bearer other" } }).keys.list("acme");
    server.events.removeAllListeners();
    expect(tenant).toBe("ops");
    expect(seen[0]?.authorization).toBe(`Bearer ${TOKEN}`);
  });
});
