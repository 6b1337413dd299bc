// Admin API, webhook deliveries (117-118): the list shows what the receiver answered (its status
// recorded per attempt, not read back out of an error string), filters by endpoint and stays
// inside the workspace; redelivery sends the same body under the same webhook-id. Receivers run
// on 127.0.0.1 (trusted through the config's trustedRanges).
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, admin, createAdminTestApp } from "./admin-support.js";
import type { TestApp } from "./support/index.js";
import { forbidSystemDns, startTestServer, type TestServer } from "./support/network-doubles.js";
import { solid } from "./support/test-images.js";
import { directUpload, uploaded, waitFor } from "./uploads-helpers.js";

interface Delivery {
  id: string;
  event_type: string;
  endpoint_id: string | null;
  url: string;
  status: string;
  attempts: number;
  max_attempts: number;
  response_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

describe("admin API: webhook deliveries", () => {
  let t: TestApp;
  let base: string;
  let receiver: TestServer;
  let restoreDns: () => void = () => {};
  let endpointId: string;
  /** What the receiver answers on a path other than /ok. */
  let answerOther: (res: ServerResponse) => void = (res) => res.writeHead(503).end();

  beforeAll(async () => {
    restoreDns = forbidSystemDns();
    receiver = await startTestServer((req, res) => {
      if (req.url === "/ok") res.writeHead(204).end();
      else answerOther(res);
    });
    t = await createAdminTestApp({
      config: { trustedRanges: "127.0.0.0/8", workers: true, jobPollIntervalMs: 50 },
    });
    base = `/admin/v1/workspaces/${t.workspace.workspaceNo}`;
    const endpoint = await admin(t, "POST", `${base}/webhook-endpoints`, { url: `${receiver.origin}/ok` });
    expect(endpoint.statusCode).toBe(201);
    endpointId = endpoint.json().id;
    const png = await solid(8, 8, { r: 1, g: 2, b: 3 }, "png");
    // One upload: a delivery to the registered endpoint (204) and one to its one-off URL (503).
    uploaded(
      await directUpload(
        t,
        { file_name: "a.png", webhook_url: `${receiver.origin}/fails` },
        { content: png },
      ),
    );
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    restoreDns();
  });

  async function list(query = ""): Promise<Delivery[]> {
    const res = await admin(t, "GET", `${base}/webhook-deliveries${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Delivery[];
  }

  it("lists deliveries newest first with the receiver's status, 2xx included", async () => {
    const deliveries = await waitFor(async () => {
      const rows = await list();
      const settled =
        rows.length === 2 &&
        rows.some((row) => row.status === "succeeded") &&
        rows.some((row) => row.response_status === 503);
      return settled ? rows : undefined;
    });
    const ok = deliveries.find((row) => row.endpoint_id === endpointId);
    expect(ok).toMatchObject({
      event_type: "file.uploaded",
      url: `${receiver.origin}/ok`,
      status: "succeeded",
      attempts: 1,
      response_status: 204,
      last_error: null,
    });
    const failing = deliveries.find((row) => row.endpoint_id === null);
    expect(failing).toMatchObject({
      url: `${receiver.origin}/fails`,
      status: "pending",
      attempts: 1,
      response_status: 503,
      last_error: "receiver answered HTTP 503",
    });
    expect(failing?.max_attempts).toBeGreaterThan(1);
    expect(Date.parse(ok?.updated_at ?? "")).toBeGreaterThanOrEqual(Date.parse(ok?.created_at ?? ""));
  });

  it("filters by endpoint and bounds the page", async () => {
    expect((await list(`?endpoint_id=${endpointId}`)).map((row) => row.endpoint_id)).toEqual([endpointId]);
    expect(await list(`?endpoint_id=${crypto.randomUUID()}`)).toEqual([]);
    expect(await list("?limit=1")).toHaveLength(1);
  });

  it("records no status when the receiver answered nothing", async () => {
    answerOther = (res) => res.socket?.destroy();
    const png = await solid(8, 8, { r: 9, g: 2, b: 3 }, "png");
    uploaded(
      await directUpload(
        t,
        { file_name: "b.png", webhook_url: `${receiver.origin}/hangs-up` },
        { content: png },
      ),
    );
    const row = await waitFor(async () =>
      (await list()).find((r) => r.url.endsWith("/hangs-up") && r.attempts === 1 && r.status === "pending"),
    );
    expect(row.response_status).toBeNull();
    expect(row.last_error).not.toBeNull();
    answerOther = (res) => res.writeHead(503).end();
  });

  it("redelivers with the same body and webhook-id, as a new delivery", async () => {
    // The newest delivery to the endpoint: the second upload's (b.png).
    const original = (await list(`?endpoint_id=${endpointId}`))[0] as Delivery;
    const before = receiver.requests.filter((r) => r.url === "/ok");
    const first = before.find((r) => r.body.includes("b.png"));
    expect(first).toBeDefined();
    // With an empty JSON body, as the console sends it.
    const res = await admin(t, "POST", `${base}/webhook-deliveries/${original.id}/redeliver`, {});
    expect(res.statusCode, res.body).toBe(202);
    const created = res.json() as Delivery;
    expect(created.id).not.toBe(original.id);
    expect(created).toMatchObject({
      endpoint_id: endpointId,
      url: original.url,
      event_type: "file.uploaded",
      attempts: 0,
      response_status: null,
    });
    const again = await waitFor(() => receiver.requests.filter((r) => r.url === "/ok")[before.length]);
    expect(again.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
    expect(again.body).toBe(first?.body);
    const settled = await waitFor(async () =>
      (await list()).find((r) => r.id === created.id && r.status === "succeeded"),
    );
    expect(settled.response_status).toBe(204);
  });

  it("answers bad input with 400 and what it cannot name with 404, never another workspace's", async () => {
    for (const query of ["?limit=0", "?limit=101", "?limit=x", "?endpoint_id=nope"]) {
      const res = await admin(t, "GET", `${base}/webhook-deliveries${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errorCode).toBe("VALIDATION_FAILED");
    }
    const mine = (await list())[0] as Delivery;
    const otherBase = `/admin/v1/workspaces/${t.workspace2.workspaceNo}`;
    expect(await admin(t, "GET", `${otherBase}/webhook-deliveries`).then((r) => r.json())).toEqual([]);
    for (const url of [
      `${otherBase}/webhook-deliveries/${mine.id}/redeliver`,
      `${base}/webhook-deliveries/${crypto.randomUUID()}/redeliver`,
      `${base}/webhook-deliveries/not-a-uuid/redeliver`,
      `/admin/v1/workspaces/nosuchws/webhook-deliveries/${mine.id}/redeliver`,
    ]) {
      const res = await admin(t, "POST", url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().errorCode).toBe("NOT_FOUND");
    }
    expect((await admin(t, "GET", "/admin/v1/workspaces/nosuchws/webhook-deliveries")).statusCode).toBe(404);
    expect((await admin(t, "GET", `${base}/webhook-deliveries`, undefined, null)).statusCode).toBe(401);
    expect(
      (await admin(t, "GET", `${base}/webhook-deliveries`, undefined, `${ADMIN_TOKEN}x`)).statusCode,
    ).toBe(401);
    // A workspace key is not the admin token.
    const withKey = await t.app.inject({
      method: "GET",
      url: `${base}/webhook-deliveries`,
      headers: { authorization: `Bearer ${t.keys.private}`, "x-api-key": t.keys.private },
    });
    expect(withKey.statusCode).toBe(401);
  });
});
