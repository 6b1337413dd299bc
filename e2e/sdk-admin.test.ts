// The SDK's admin client against the real server over HTTP: a workspace's whole life (create, a
// key used by createClient, revoke, disable and enable, forced delete), its webhooks and named
// transforms, and the refusals (wrong token, admin API off).
import { randomBytes } from "node:crypto";
import {
  AuthenticationError,
  ConflictError,
  createAdminClient,
  createClient,
  NotFoundError,
  type TroveAdminClient,
} from "@trove/sdk";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ADMIN_TOKEN = randomBytes(32).toString("hex");

/** Resolves with what `promise` rejected with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe("the SDK's admin client against a server with the admin API on", () => {
  let server: ServerProcess;
  let admin: TroveAdminClient;
  const workspaceClient = (apiKey: string) => createClient({ apiKey, baseUrl: server.baseUrl });

  beforeAll(async () => {
    // The webhook endpoint added below is on loopback, which the SSRF guard refuses unless trusted;
    // nothing is ever delivered to it.
    server = await startServerProcess({
      TROVE_ADMIN_TOKEN: ADMIN_TOKEN,
      TROVE_TRUSTED_RANGES: "127.0.0.0/8",
    });
    admin = createAdminClient({ baseUrl: server.baseUrl, adminToken: ADMIN_TOKEN });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("creates a workspace and a key that createClient uploads and lists with; the list hides the secret; a revoked key gets 401", async () => {
    const workspace = await admin.workspaces.create({ name: "Acme", workspace_no: "acme" });
    expect(workspace).toMatchObject({ workspace_no: "acme", name: "Acme", disabled_at: null, file_count: 0 });
    expect(await admin.workspaces.get("acme")).toEqual(workspace);

    const created = await admin.keys.create("acme", { type: "private", name: "ci" });
    expect(created.key).toMatch(/^trove_sk_/);
    const trove = workspaceClient(created.key);
    const uploaded = await trove.upload(new TextEncoder().encode("hello"), { fileName: "hello.txt" });
    const files = await trove.files.list();
    expect(files.files.map((file) => file.file_no)).toEqual([uploaded.file_no]);
    expect((await admin.workspaces.get("acme")).file_count).toBe(1);

    const keys = await admin.keys.list("acme");
    const row = keys.find((key) => key.id === created.id);
    expect(row).toMatchObject({ prefix: created.prefix, name: "ci", type: "private", revoked_at: null });
    expect(row).not.toHaveProperty("key");
    expect(JSON.stringify(keys)).not.toContain(created.key.slice(created.prefix.length));

    const revoked = await admin.keys.revoke("acme", created.id);
    expect(revoked.revoked_at).toEqual(expect.any(String));
    const refused = await rejection(trove.files.list());
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect(refused).toMatchObject({ status: 401 });
  });

  it("disables and enables a workspace: its keys get 401 meanwhile, then work again", async () => {
    await admin.workspaces.create({ name: "Toggle", workspace_no: "toggle" });
    const { key } = await admin.keys.create("toggle", { type: "private" });
    const trove = workspaceClient(key);
    await trove.files.list();

    const disabled = await admin.workspaces.disable("toggle");
    expect(disabled.disabled_at).toEqual(expect.any(String));
    expect(await rejection(trove.files.list())).toMatchObject({ status: 401 });

    const enabled = await admin.workspaces.enable("toggle");
    expect(enabled.disabled_at).toBeNull();
    expect((await trove.files.list()).files).toEqual([]);
  });

  it("refuses to delete a workspace holding files unless forced; forced, it is gone after the job runs", async () => {
    await admin.workspaces.create({ name: "Doomed", workspace_no: "doomed" });
    const { key } = await admin.keys.create("doomed", { type: "private" });
    const trove = workspaceClient(key);
    for (const name of ["a.txt", "b.txt"])
      await trove.upload(new TextEncoder().encode(name), { fileName: name });

    const refused = await rejection(admin.workspaces.delete("doomed"));
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused).toMatchObject({ status: 409, code: "WORKSPACE_NOT_EMPTY" });

    expect(await admin.workspaces.delete("doomed", { force: true })).toEqual({
      workspace_no: "doomed",
      status: "deleting",
      file_count: 2,
    });
    // Disabled at once: the key is refused before the background job has removed anything.
    expect(await rejection(trove.files.list())).toMatchObject({ status: 401 });
    // The in-process job runner removes it; poll (up to a minute) until the workspace is gone.
    let gone: unknown;
    for (let attempt = 0; attempt < 120 && !gone; attempt++) {
      gone = await admin.workspaces.get("doomed").then(
        () => new Promise((resolve) => setTimeout(() => resolve(undefined), 500)),
        (error: unknown) => error,
      );
    }
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone).toMatchObject({ status: 404, code: "NOT_FOUND" });
  });

  it("lists workspaces page by page, with the development one", async () => {
    const all = [];
    for await (const workspace of admin.workspaces.listAll({ limit: 1 })) all.push(workspace.workspace_no);
    expect(all).toEqual(expect.arrayContaining(["acme", "toggle"]));
    expect(new Set(all).size).toBe(all.length);
    expect((await admin.workspaces.list({ limit: 1 })).total).toBe(all.length);
  });

  it("shows and rotates the webhook secret, manages endpoints and named transforms", async () => {
    const before = await admin.webhooks.secret("acme");
    const rotated = await admin.webhooks.rotateSecret("acme", { graceSeconds: 60 });
    expect(rotated.secret).not.toBe(before.secret);
    expect(rotated.previous_expires_at).toEqual(expect.any(String));
    expect((await admin.webhooks.secret("acme")).secret).toBe(rotated.secret);

    const endpoint = await admin.webhooks.endpoints.add("acme", { url: "http://127.0.0.1:9/trove" });
    expect(endpoint.events).toEqual(["*"]);
    expect(await admin.webhooks.endpoints.list("acme")).toEqual([endpoint]);
    await admin.webhooks.endpoints.remove("acme", endpoint.id);
    expect(await admin.webhooks.endpoints.list("acme")).toEqual([]);

    const named = await admin.transforms.set("acme", "t_card", "h_300,w_400");
    expect(named).toMatchObject({ name: "card", transform: expect.stringContaining("w_400") });
    expect(await admin.transforms.list("acme")).toEqual([named]);
    await admin.transforms.remove("acme", "card");
    const missing = await rejection(admin.transforms.remove("acme", "card"));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ code: "NOT_FOUND" });
  });

  it("a wrong token, or a workspace key in its place, is a 401 AuthenticationError with errorCode UNAUTHORIZED", async () => {
    for (const adminToken of [`${ADMIN_TOKEN}x`, server.keys.private]) {
      const error = await rejection(
        createAdminClient({ baseUrl: server.baseUrl, adminToken }).workspaces.list(),
      );
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).toMatchObject({
        status: 401,
        code: "UNAUTHORIZED",
        body: { error: "Unauthorized", errorCode: "UNAUTHORIZED", message: "Invalid or missing admin token" },
      });
    }
  });
});

describe("the SDK's admin client against a server with the admin API off", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("gets 404 NotFoundError for every call, as for an unknown route", async () => {
    const admin = createAdminClient({ baseUrl: server.baseUrl, adminToken: ADMIN_TOKEN });
    for (const call of [admin.workspaces.list(), admin.workspaces.create({ name: "x" })]) {
      const error = await rejection(call);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, code: "NOT_FOUND" });
    }
  });
});
