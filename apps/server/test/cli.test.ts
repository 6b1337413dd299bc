import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli.js";
import { loadConfig } from "../src/config.js";
import { openDatabase } from "../src/db/database.js";
import { seedDevelopment } from "../src/keys/seed.js";

describe("trove-server CLI", () => {
  let dir: string;
  let workspaceNo: string;
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: { TROVE_DATA_DIR: dir } },
    };
  };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trove-cli-"));
    const migrated = io();
    expect(await runCli(["migrate"], migrated.io)).toBe(0);
    expect(migrated.out.join("\n")).toMatch(/Applied 1 migration|applied /);
    const again = io();
    expect(await runCli(["migrate"], again.io)).toBe(0);
    expect(again.out.join("\n")).toMatch(/up to date/);
    const config = loadConfig({ TROVE_DATA_DIR: dir });
    const db = await openDatabase(config.database);
    try {
      const seeded = await seedDevelopment(db.prisma, config);
      workspaceNo = seeded.workspace!.workspaceNo;
    } finally {
      await db.close();
    }
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("creates, lists and revokes keys", async () => {
    const created = io();
    expect(
      await runCli(["keys", "create", "--workspace", workspaceNo, "--type", "private"], created.io),
    ).toBe(0);
    const key = created.out[0]!;
    expect(key).toMatch(/^trove_sk_[0-9A-Za-z]{32}$/);

    const listed = io();
    expect(await runCli(["keys", "list", "--workspace", workspaceNo], listed.io)).toBe(0);
    const table = listed.out.join("\n");
    expect(table).toContain(key.slice(0, 17));
    expect(table).not.toContain(key);

    const revoked = io();
    expect(await runCli(["keys", "revoke", key.slice(0, 17)], revoked.io)).toBe(0);
    const after = io();
    await runCli(["keys", "list", "--workspace", workspaceNo], after.io);
    expect(after.out.find((line) => line.startsWith(key.slice(0, 17)))).toContain("revoked");
  }, 60_000);

  it("creates a public key that carries an upload policy", async () => {
    const created = io();
    const args = ["keys", "create", "--workspace", workspaceNo, "--type", "public", "--max-size", "20MB"];
    args.push(
      "--types",
      "image/*,video/mp4",
      "--folder",
      "avatars/",
      "--folder-match",
      "prefix",
      "--no-remote",
    );
    expect(await runCli(args, created.io)).toBe(0);
    const key = created.out[0]!;
    expect(key).toMatch(/^trove_pk_[0-9A-Za-z]{32}$/);
    const config = loadConfig({ TROVE_DATA_DIR: dir });
    const db = await openDatabase(config.database);
    try {
      const row = await db.prisma.apiKey.findFirstOrThrow({ where: { prefix: key.slice(0, 17) } });
      expect(row.policy).toMatchObject({
        max_file_size: 20_000_000,
        allowed_types: ["image/*", "video/mp4"],
        folder: "avatars",
        folder_match: "prefix",
        allow_remote: false,
      });
    } finally {
      await db.close();
    }
    for (const bad of [
      ["--max-size", "lots"],
      ["--types", "images"],
      ["--folder", "w_100"],
    ]) {
      const refused = io();
      const code = await runCli(
        ["keys", "create", "--workspace", workspaceNo, "--type", "public", ...bad],
        refused.io,
      );
      expect(code, bad.join(" ")).not.toBe(0);
      expect(refused.err.join("\n"), bad.join(" ")).not.toBe("");
    }
    const onPrivate = io();
    const privateArgs = [
      "keys",
      "create",
      "--workspace",
      workspaceNo,
      "--type",
      "private",
      "--max-size",
      "1MB",
    ];
    expect(await runCli(privateArgs, onPrivate.io)).not.toBe(0);
  }, 60_000);

  it("fails clearly on bad input", async () => {
    const badType = io();
    expect(await runCli(["keys", "create", "--workspace", workspaceNo, "--type", "admin"], badType.io)).toBe(
      2,
    );
    const noWorkspace = io();
    expect(await runCli(["keys", "list", "--workspace", "nope"], noWorkspace.io)).toBe(1);
    expect(noWorkspace.err.join("\n")).toContain("No workspace nope");
    const unknownKey = io();
    expect(await runCli(["keys", "revoke", "trove_sk_nothing"], unknownKey.io)).toBe(1);
    const badEnv = io();
    expect(await runCli(["migrate"], { ...badEnv.io, env: { TROVE_DATA_DIR: dir, PORT: "x" } })).toBe(1);
    expect(badEnv.err.join("\n")).toMatch(/PORT/);
  }, 60_000);
});
