import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobRunner } from "../src/jobs/start-workers.js";
import { admin, createAdminTestApp } from "./admin-support.js";
import { seedFile, type TestApp } from "./support/index.js";

async function createUploadToken(t: TestApp): Promise<string> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/uploads/tokens",
    headers: { "x-api-key": t.keys.private },
    payload: {},
  });
  return res.json().token;
}

describe("admin API: workspaces", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createAdminTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("creates, gets, lists and renames a workspace", async () => {
    const created = await admin(t, "POST", "/admin/v1/workspaces", { name: "Acme", workspace_no: "acme1" });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      workspace_no: "acme1",
      name: "Acme",
      disabled_at: null,
      file_count: 0,
    });

    const random = await admin(t, "POST", "/admin/v1/workspaces", { name: "No number" });
    expect(random.json().workspace_no).toMatch(/^[a-z0-9]+$/);

    const got = await admin(t, "GET", "/admin/v1/workspaces/acme1");
    expect(got.json()).toEqual(created.json());

    const list = await admin(t, "GET", "/admin/v1/workspaces?limit=2&page=2");
    expect(list.json()).toMatchObject({ total: 4, page: 2, limit: 2 });
    expect(list.json().workspaces.map((w: { workspace_no: string }) => w.workspace_no)).toContain("acme1");

    const renamed = await admin(t, "PATCH", "/admin/v1/workspaces/acme1", { name: "Acme Inc." });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe("Acme Inc.");
  });

  it("refuses bad bodies and queries with the admin 400 envelope, a taken number with 409", async () => {
    for (const [method, url, body] of [
      ["POST", "/admin/v1/workspaces", { name: "" }],
      ["POST", "/admin/v1/workspaces", { name: "x", workspace_no: "Not OK!" }],
      ["POST", "/admin/v1/workspaces", { name: "x", extra: true }],
      ["POST", "/admin/v1/workspaces", [1, 2]],
      ["PATCH", "/admin/v1/workspaces/acme1", {}],
      ["PATCH", "/admin/v1/workspaces/acme1", { disabled: "yes" }],
      ["GET", "/admin/v1/workspaces?limit=1000", undefined],
      ["DELETE", "/admin/v1/workspaces/acme1?force=maybe", undefined],
    ] as const) {
      const res = await admin(t, method, url, body);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json()).toMatchObject({ error: "Validation failed", errorCode: "VALIDATION_FAILED" });
    }
    const taken = await admin(t, "POST", "/admin/v1/workspaces", { name: "again", workspace_no: "acme1" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: "Conflict", errorCode: "CONFLICT" });
  });

  it("answers 404 for a workspace that does not exist, on every workspace route", async () => {
    for (const [method, url] of [
      ["GET", "/admin/v1/workspaces/nosuch"],
      ["PATCH", "/admin/v1/workspaces/nosuch"],
      ["DELETE", "/admin/v1/workspaces/nosuch"],
      ["GET", "/admin/v1/workspaces/nosuch/keys"],
      ["GET", "/admin/v1/workspaces/nosuch/webhook-secret"],
      ["GET", "/admin/v1/workspaces/nosuch/transforms"],
      ["GET", "/admin/v1/workspaces/no-such!/keys"],
    ] as const) {
      const res = await admin(t, method, url, method === "PATCH" ? { name: "x" } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ error: "Not Found", errorCode: "NOT_FOUND" });
    }
  });

  it("disabling refuses the workspace's keys and upload tokens (401) and hides its files (404); enabling restores them", async () => {
    const no = t.workspace.workspaceNo;
    const file = await seedFile(t.app, t.workspace, { name: "cat.txt" });
    const token = await createUploadToken(t);
    const filesWith = (key: string) =>
      t.app.inject({ method: "GET", url: "/api/v1/files", headers: { "x-api-key": key } });
    const upload = () =>
      t.app.inject({
        method: "POST",
        url: "/api/v1/uploads/remote",
        headers: { authorization: `Bearer ${token}` },
        payload: {},
      });
    const deliver = () => t.app.inject({ method: "GET", url: `/assets/${no}/cat.txt` });
    expect((await filesWith(t.keys.private)).statusCode).toBe(200);
    expect((await deliver()).statusCode).toBe(200);
    expect((await upload()).statusCode).not.toBe(401);

    const disabled = await admin(t, "PATCH", `/admin/v1/workspaces/${no}`, { disabled: true });
    expect(disabled.json().disabled_at).toEqual(expect.any(String));
    expect((await filesWith(t.keys.private)).statusCode).toBe(401);
    expect((await upload()).statusCode).toBe(401);
    const hidden = await deliver();
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: "File not found" });
    // The other workspace is untouched.
    expect((await filesWith(t.keys.private2)).statusCode).toBe(200);

    await admin(t, "PATCH", `/admin/v1/workspaces/${no}`, { disabled: false });
    expect((await filesWith(t.keys.private)).statusCode).toBe(200);
    expect((await deliver()).body).toBe(file.content.toString());
  });

  it("deletes an empty workspace at once, with its keys", async () => {
    await admin(t, "POST", "/admin/v1/workspaces", { name: "Empty", workspace_no: "empty1" });
    const key = (await admin(t, "POST", "/admin/v1/workspaces/empty1/keys", { type: "private" })).json().key;
    const res = await admin(t, "DELETE", "/admin/v1/workspaces/empty1");
    expect(res.json()).toEqual({ workspace_no: "empty1", status: "deleted", file_count: 0 });
    expect((await admin(t, "GET", "/admin/v1/workspaces/empty1")).statusCode).toBe(404);
    expect(await t.app.db.apiKey.count({ where: { prefix: key.slice(0, 17) } })).toBe(0);
  });

  it("refuses to delete a workspace holding files (409 WORKSPACE_NOT_EMPTY) unless forced; forced, the job queue removes rows and objects", async () => {
    await admin(t, "POST", "/admin/v1/workspaces", { name: "Full", workspace_no: "full1" });
    const workspace = await t.app.db.workspace.findUniqueOrThrow({ where: { workspaceNo: "full1" } });
    const files = [];
    for (const name of ["a.txt", "b.txt", "c.txt"])
      files.push(await seedFile(t.app, workspace, { name, folderPath: "docs" }));
    const refused = await admin(t, "DELETE", "/admin/v1/workspaces/full1");
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: "Conflict", errorCode: "WORKSPACE_NOT_EMPTY" });
    expect(refused.json().message).toContain("3 file(s)");

    const forced = await admin(t, "DELETE", "/admin/v1/workspaces/full1?force=true");
    expect(forced.json()).toEqual({ workspace_no: "full1", status: "deleting", file_count: 3 });
    // Disabled at once: its files are no longer served, though rows and objects are still there.
    expect((await t.app.inject({ method: "GET", url: "/assets/full1/docs/a.txt" })).statusCode).toBe(404);
    expect(await t.app.storage.exists(files[0]!.storageKey)).toBe(true);
    expect(await t.app.db.job.count({ where: { kind: "workspace.delete", status: "pending" } })).toBe(1);

    const runner = createJobRunner(t.app);
    while ((await runner.runOnce()) > 0) {}
    for (const file of files) expect(await t.app.storage.exists(file.storageKey)).toBe(false);
    expect(await t.app.db.file.count({ where: { workspaceId: workspace.id } })).toBe(0);
    expect(await t.app.db.folder.count({ where: { workspaceId: workspace.id } })).toBe(0);
    expect((await admin(t, "GET", "/admin/v1/workspaces/full1")).statusCode).toBe(404);
  });
});
