import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli.js";
import { loadConfig } from "../src/config.js";
import { openDatabase } from "../src/db/database.js";

// Each command opens and migrates the embedded database, a few seconds apiece on a busy machine.
describe("trove-server workspaces and keys create --expires", { timeout: 180_000 }, () => {
  let dir: string;
  const run = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, {
      out: (s) => out.push(s),
      err: (s) => err.push(s),
      env: { TROVE_DATA_DIR: dir, TROVE_SEED_DEV: "false" },
    });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trove-cli-ws-"));
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  });

  it("creates, gets, lists, renames, disables, enables and deletes a workspace", async () => {
    expect(await run(["workspaces", "create", "Acme", "--number", "acme1"])).toMatchObject({
      code: 0,
      out: "acme1",
    });
    expect((await run(["workspaces", "create", "Again", "--number", "acme1"])).code).toBe(1);
    expect((await run(["workspaces", "create", "Bad", "--number", "Not OK"])).code).toBe(1);
    expect((await run(["workspaces", "rename", "acme1", "Acme Inc."])).code).toBe(0);
    expect((await run(["workspaces", "get", "acme1"])).out).toMatch(/^acme1\s+active\s+0\s+Acme Inc\.$/);
    expect((await run(["workspaces", "disable", "acme1"])).code).toBe(0);
    expect((await run(["workspaces", "list"])).out).toMatch(/acme1\s+disabled \S+\s+0\s+Acme Inc\./);
    expect((await run(["workspaces", "enable", "acme1"])).code).toBe(0);
    expect((await run(["workspaces", "get", "acme1"])).out).toContain("active");
    expect((await run(["workspaces", "get", "nosuch"])).err).toContain("No workspace nosuch");
    expect((await run(["workspaces", "embedded-metadata", "acme1", "strip-location"])).out).toBe(
      "Workspace acme1: embedded metadata strip-location.",
    );
    expect((await run(["workspaces", "embedded-metadata", "acme1", "scrub"])).code).toBe(1);
    expect((await run(["workspaces", "embedded-metadata", "acme1", "default"])).out).toContain(
      "default rule",
    );
    expect((await run(["workspaces", "delete", "acme1"])).out).toBe("Deleted workspace acme1.");
    expect((await run(["workspaces", "get", "acme1"])).code).toBe(1);
  });

  it("refuses to delete a workspace that holds files unless --force, which disables it and queues the job", async () => {
    await run(["workspaces", "create", "Full", "--number", "full1"]);
    const config = loadConfig({ TROVE_DATA_DIR: dir });
    const db = await openDatabase(config.database);
    try {
      const workspace = await db.prisma.workspace.findUniqueOrThrow({ where: { workspaceNo: "full1" } });
      await db.prisma.file.create({
        data: {
          workspaceId: workspace.id,
          name: "a.txt",
          path: "a.txt",
          storageKey: `${workspace.id}/a.txt`,
          size: 1n,
          mimeType: "text/plain",
          format: "txt",
          extension: "txt",
          hash: "00",
          uploadSource: "seed",
        },
      });
    } finally {
      await db.close();
    }
    const refused = await run(["workspaces", "delete", "full1"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("holds 1 file(s)");
    const forced = await run(["workspaces", "delete", "full1", "--force"]);
    expect(forced).toMatchObject({ code: 0 });
    expect(forced.out).toContain("disabled");
    expect((await run(["workspaces", "get", "full1"])).out).toContain("disabled");
  });

  it("keys create --expires stores the expiry and refuses a past or malformed one", async () => {
    await run(["workspaces", "create", "Keys", "--number", "keys1"]);
    const expires = "2099-01-01T00:00:00.000Z";
    const created = await run([
      "keys",
      "create",
      "--workspace",
      "keys1",
      "--type",
      "private",
      "--expires",
      expires,
    ]);
    expect(created.code).toBe(0);
    const config = loadConfig({ TROVE_DATA_DIR: dir });
    const db = await openDatabase(config.database);
    try {
      const key = await db.prisma.apiKey.findFirstOrThrow({ where: { prefix: created.out.slice(0, 17) } });
      expect(key.expiresAt?.toISOString()).toBe(expires);
    } finally {
      await db.close();
    }
    for (const bad of ["2001-01-01T00:00:00Z", "soon"]) {
      expect(
        (await run(["keys", "create", "--workspace", "keys1", "--type", "private", "--expires", bad])).code,
      ).toBe(2);
    }
  });
});
