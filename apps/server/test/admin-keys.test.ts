import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { admin, createAdminTestApp } from "./admin-support.js";
import type { TestApp } from "./support/index.js";

describe("admin API: keys", () => {
  let t: TestApp;
  let base: string;
  const files = (key: string) =>
    t.app.inject({ method: "GET", url: "/api/v1/files", headers: { "x-api-key": key } });
  beforeAll(async () => {
    t = await createAdminTestApp();
    base = `/admin/v1/workspaces/${t.workspace.workspaceNo}/keys`;
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await t.close();
  });

  it("creates a key that works at once, shows its secret once and lists it without one", async () => {
    const created = await admin(t, "POST", base, { type: "private", name: "ci" });
    expect(created.statusCode).toBe(201);
    const { key, id, prefix } = created.json();
    expect(key).toMatch(/^trove_sk_[0-9A-Za-z]{32}$/);
    expect(created.json()).toMatchObject({
      name: "ci",
      type: "private",
      expires_at: null,
      revoked_at: null,
      policy: null,
    });
    expect((await files(key)).statusCode).toBe(200);

    const listed = await admin(t, "GET", base);
    const row = listed.json().keys.find((k: { id: string }) => k.id === id);
    expect(row).toMatchObject({ prefix, name: "ci", type: "private", last_used_at: expect.any(String) });
    expect(Object.keys(row).sort()).toEqual([
      "created_at",
      "expires_at",
      "id",
      "last_used_at",
      "name",
      "policy",
      "prefix",
      "revoked_at",
      "type",
    ]);
    expect(listed.body).not.toContain(key.slice(9));
  });

  it("creates a public key with an upload policy and an expiry", async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await admin(t, "POST", base, {
      type: "public",
      expires_at: expiresAt,
      policy: { max_file_size: 1000, folder: "avatars/" },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      type: "public",
      expires_at: expiresAt,
      policy: { max_file_size: 1000, folder: "avatars", folder_match: "exact" },
    });
    expect(res.json().key).toMatch(/^trove_pk_/);
  });

  it("refuses bad bodies (400): unknown type, policy on a private key, a past expiry, unknown fields", async () => {
    for (const body of [
      { type: "secret" },
      { type: "private", policy: { max_file_size: 10 } },
      { type: "private", expires_at: "2001-01-01T00:00:00Z" },
      { type: "private", expires_at: "tomorrow" },
      { type: "private", hash: "x" },
      [1],
    ]) {
      const res = await admin(t, "POST", base, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ errorCode: "VALIDATION_FAILED" });
    }
  });

  it("revokes a key: 401 on the next request here (the cache forgets it), idempotent, 404 for an unknown id", async () => {
    const { key, id } = (await admin(t, "POST", base, { type: "private" })).json();
    expect((await files(key)).statusCode).toBe(200); // now cached
    const revoked = await admin(t, "DELETE", `${base}/${id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revoked_at).toEqual(expect.any(String));
    expect((await files(key)).statusCode).toBe(401);
    expect((await admin(t, "DELETE", `${base}/${id}`)).json().revoked_at).toBe(revoked.json().revoked_at);
    expect((await admin(t, "DELETE", `${base}/00000000-0000-7000-8000-000000000000`)).statusCode).toBe(404);
    expect((await admin(t, "DELETE", `${base}/not-a-uuid`)).statusCode).toBe(404);
    // A key of another workspace is not found through this one.
    const other = await t.app.db.apiKey.findFirstOrThrow({ where: { workspaceId: t.workspace2.id } });
    expect((await admin(t, "DELETE", `${base}/${other.id}`)).statusCode).toBe(404);
  });

  it("an expired key gets 401 KEY_EXPIRED, even while its lookup is cached", async () => {
    const expiresAt = new Date(Date.now() + 3_600_000);
    const { key } = (
      await admin(t, "POST", base, { type: "public", expires_at: expiresAt.toISOString() })
    ).json();
    const upload = () =>
      t.app.inject({
        method: "POST",
        url: "/api/v1/uploads/remote",
        headers: { "x-api-key": key },
        payload: {},
      });
    expect((await upload()).statusCode).toBe(400); // authenticated; the empty body is the problem
    // The clock moves past the expiry; the cache entry (kept by the monotonic clock) is still fresh.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(expiresAt.getTime() + 1);
    const res = await upload();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      success: false,
      error: "Unauthorized",
      errorCode: "KEY_EXPIRED",
      message: "Invalid or missing API key",
    });
  });

  it("a key whose expiry passed before it was ever used gets 401 too", async () => {
    const { key, id } = (await admin(t, "POST", base, { type: "private" })).json();
    await t.app.db.apiKey.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await files(key);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      success: false,
      error: "Unauthorized",
      message: "Invalid or missing API key",
      errorCode: "KEY_EXPIRED",
    });
  });
});
