import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BASE_URL, useMswServer } from "../../../test/support/msw-server.js";
import { createAdminClient } from "../../admin.js";
import { createAdminClient as nodeAdminClient } from "../../node.js";
import { InvalidResponseError, NotFoundError } from "../errors.js";

const server = useMswServer();
const TOKEN = "admin-token-0123456789abcdef0123456789abcdef";
const WS = "/admin/v1/workspaces/acme/webhook-deliveries";
const DELIVERY_ID = "0190f1c2-4b5a-7c3d-8e9f-0a1b2c3d4e5f";
const delivery = {
  id: DELIVERY_ID,
  event_type: "file.uploaded",
  endpoint_id: null,
  url: "https://hooks.example/trove",
  status: "failed",
  attempts: 3,
  max_attempts: 3,
  response_status: 503,
  last_error: "receiver answered HTTP 503",
  created_at: "2026-01-02T03:04:05.000Z",
  updated_at: "2026-01-02T03:05:05.000Z",
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("admin client: webhook deliveries", () => {
  it("lists with limit and endpoint filter, and redelivers", async () => {
    const seen: string[] = [];
    server.use(
      http.get(`${BASE_URL}${WS}`, ({ request }) => {
        seen.push(`GET ${new URL(request.url).search} ${request.headers.get("authorization")}`);
        return HttpResponse.json([delivery]);
      }),
      http.post(`${BASE_URL}${WS}/:id/redeliver`, ({ params }) => {
        seen.push(`POST ${String(params.id)}`);
        return HttpResponse.json(
          { ...delivery, id: "0190f1c2-4b5a-7c3d-8e9f-0a1b2c3d4e60", attempts: 0 },
          { status: 202 },
        );
      }),
    );
    const client = createAdminClient({ adminToken: TOKEN, baseUrl: BASE_URL });
    expect(await client.webhookDeliveries.list("acme", { limit: 5, endpointId: DELIVERY_ID })).toEqual([
      delivery,
    ]);
    expect(await client.webhookDeliveries.list("acme")).toEqual([delivery]);
    const again = await client.webhookDeliveries.redeliver("acme", DELIVERY_ID);
    expect(again).toMatchObject({ attempts: 0, url: delivery.url });
    expect(seen).toEqual([
      `GET ?limit=5&endpoint_id=${DELIVERY_ID} Bearer ${TOKEN}`,
      `GET  Bearer ${TOKEN}`,
      `POST ${DELIVERY_ID}`,
    ]);
  });

  it("maps 404 to NotFoundError and a drifted answer to InvalidResponseError", async () => {
    server.use(
      http.post(`${BASE_URL}${WS}/:id/redeliver`, () =>
        HttpResponse.json(
          { error: "Not Found", errorCode: "NOT_FOUND", message: "Webhook delivery not found" },
          { status: 404 },
        ),
      ),
      http.get(`${BASE_URL}${WS}`, () => HttpResponse.json({ deliveries: [delivery] })),
    );
    const client = createAdminClient({ adminToken: TOKEN, baseUrl: BASE_URL, maxRetryDelay: 0 });
    await expect(client.webhookDeliveries.redeliver("acme", DELIVERY_ID)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(client.webhookDeliveries.list("acme")).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it("in a page, builds only with the page's own fetch (a session), never from the Node entry", async () => {
    vi.stubGlobal("document", {});
    expect(() => createAdminClient({ adminToken: "placeholder", baseUrl: BASE_URL })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/fetch/) }),
    );
    expect(() => nodeAdminClient({ adminToken: "placeholder", baseUrl: BASE_URL, fetch })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    const authorizations: (string | null)[] = [];
    server.use(
      http.get(`${BASE_URL}${WS}`, ({ request }) => {
        authorizations.push(request.headers.get("authorization"));
        return HttpResponse.json([]);
      }),
    );
    // What the console does: its fetch drops the placeholder and lets the session cookie speak.
    const sessionFetch: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      const headers = new Headers(request.headers);
      headers.delete("authorization");
      return fetch(new Request(request, { headers }));
    };
    const client = createAdminClient({ adminToken: "placeholder", baseUrl: BASE_URL, fetch: sessionFetch });
    expect(await client.webhookDeliveries.list("acme")).toEqual([]);
    expect(authorizations).toEqual([null]);
  });
});
