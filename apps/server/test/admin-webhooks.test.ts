import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, createAdminTestApp } from "./admin-support.js";
import type { TestApp } from "./support/index.js";

describe("admin API: webhook secret, endpoints and named transforms", () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createAdminTestApp({ config: { trustedRanges: "127.0.0.0/8" } });
    base = `/admin/v1/workspaces/${t.workspace.workspaceNo}`;
  });
  afterAll(async () => {
    await t.close();
  });

  it("shows the webhook secret and rotates it, keeping the old one during the grace", async () => {
    const shown = await admin(t, "GET", `${base}/webhook-secret`);
    expect(shown.json()).toEqual({ secret: expect.stringMatching(/^whsec_/), previous_expires_at: null });
    const rotated = await admin(t, "POST", `${base}/webhook-secret/rotate`, { grace_seconds: 600 });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().secret).not.toBe(shown.json().secret);
    expect(Date.parse(rotated.json().previous_expires_at)).toBeGreaterThan(Date.now());
    expect((await admin(t, "GET", `${base}/webhook-secret`)).json()).toEqual(rotated.json());

    const noBody = await admin(t, "POST", `${base}/webhook-secret/rotate`);
    expect(noBody.statusCode).toBe(200);
    const noGrace = await admin(t, "POST", `${base}/webhook-secret/rotate`, { grace_seconds: 0 });
    expect(noGrace.json().previous_expires_at).toBeNull();
    expect((await admin(t, "POST", `${base}/webhook-secret/rotate`, { grace_seconds: -1 })).statusCode).toBe(
      400,
    );
  });

  it("adds, lists and removes webhook endpoints; refuses bad URLs and event types with 400", async () => {
    const added = await admin(t, "POST", `${base}/webhook-endpoints`, {
      url: "http://127.0.0.1:9/hook",
      events: ["file.uploaded"],
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ url: "http://127.0.0.1:9/hook", events: ["file.uploaded"] });
    const listed = await admin(t, "GET", `${base}/webhook-endpoints`);
    expect(listed.json().endpoints).toEqual([added.json()]);

    for (const body of [
      { url: "ftp://example.com/x" },
      { url: "http://127.0.0.1:9/x", events: ["nope"] },
      { url: "http://127.0.0.1:9/x", events: [] },
      { events: ["*"] },
    ]) {
      const res = await admin(t, "POST", `${base}/webhook-endpoints`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errorCode).toBe("VALIDATION_FAILED");
    }

    const removed = await admin(t, "DELETE", `${base}/webhook-endpoints/${added.json().id}`);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe("");
    expect((await admin(t, "DELETE", `${base}/webhook-endpoints/${added.json().id}`)).statusCode).toBe(404);
    expect((await admin(t, "GET", `${base}/webhook-endpoints`)).json().endpoints).toEqual([]);
  });

  it("sets, lists and removes named transforms; 400 for a bad name or definition, 404 for a missing one", async () => {
    const set = await admin(t, "PUT", `${base}/transforms/t_card`, { transform: "h_300,w_400" });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ name: "card", transform: expect.stringContaining("w_400") });
    expect((await admin(t, "GET", `${base}/transforms`)).json().transforms).toEqual([set.json()]);

    for (const [name, body] of [
      ["Bad Name", { transform: "w_10" }],
      ["thumb", { transform: "w_0" }],
      ["thumb", { transform: "t_card" }],
      ["thumb", {}],
    ] as const) {
      const res = await admin(t, "PUT", `${base}/transforms/${encodeURIComponent(name)}`, body);
      expect(res.statusCode, `${name} ${JSON.stringify(body)}`).toBe(400);
    }
    expect((await admin(t, "DELETE", `${base}/transforms/Bad%20Name`)).statusCode).toBe(400);
    expect((await admin(t, "DELETE", `${base}/transforms/card`)).statusCode).toBe(204);
    const missing = await admin(t, "DELETE", `${base}/transforms/card`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errorCode).toBe("NOT_FOUND");
  });

  it("switches strict transforms through the workspace", async () => {
    const res = await admin(t, "PATCH", base, { strict_transforms: true });
    expect(res.json().strict_transforms).toBe(true);
  });
});
