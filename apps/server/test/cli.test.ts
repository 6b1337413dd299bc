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
  let workspaceId: string;
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
      workspaceId = seeded.workspace!.id;
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

  it("counts check reports counts changed behind the trigger's back; counts repair fixes them", async () => {
    const clean = io();
    expect(await runCli(["counts", "check"], clean.io)).toBe(0);
    expect(clean.out.join("\n")).toContain("0 workspace and 0 folder counts differed");

    // A bulk load with the counting trigger off, as an operator might do.
    const db = await openDatabase(loadConfig({ TROVE_DATA_DIR: dir }).database);
    try {
      await db.prisma.$executeRawUnsafe("ALTER TABLE files DISABLE TRIGGER files_counted");
      await db.prisma.$executeRaw`
        INSERT INTO files (id, workspace_id, name, path, storage_key, size, mime_type, format, extension,
                           hash, upload_source, updated_at)
        VALUES (gen_random_uuid(), ${workspaceId}::uuid, 'bulk.bin', 'bulk.bin', 'bulk-key', 5,
                'application/octet-stream', 'bin', 'bin', 'h', 'seed', now())`;
      await db.prisma.$executeRawUnsafe("ALTER TABLE files ENABLE TRIGGER files_counted");
    } finally {
      await db.close();
    }
    const drifted = io();
    expect(await runCli(["counts", "check"], drifted.io)).toBe(1);
    expect(drifted.out.join("\n")).toContain("1 workspace and 0 folder counts differed");
    expect(drifted.err.join("\n")).toContain("trove-server counts repair");
    const repaired = io();
    expect(await runCli(["counts", "repair"], repaired.io)).toBe(0);
    expect(repaired.out.join("\n")).toContain("all are exact now");
    const after = io();
    expect(await runCli(["counts", "check"], after.io)).toBe(0);
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
      "--no-transforms",
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
        allow_transforms: false,
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

  it("sets, lists and removes named transforms, and switches strict mode", async () => {
    const run = async (...args: string[]) => {
      const call = io();
      const code = await runCli(["transforms", ...args], call.io);
      return { code, out: call.out.join("\n"), err: call.err.join("\n") };
    };
    const ws = ["--workspace", workspaceNo];

    const set = await run("set", ...ws, "card", "h_300,w_400,f_jpeg");
    expect(set).toMatchObject({ code: 0, out: "t_card w_400,h_300,c_fill,f_jpg" });
    expect((await run("set", ...ws, "t_thumb", "w_100")).code).toBe(0);
    const listed = await run("list", ...ws);
    expect(listed).toMatchObject({ code: 0, out: "t_card w_400,h_300,c_fill,f_jpg\nt_thumb w_100" });
    expect(listed.err).toBe("Strict mode is off.");

    const strict = await run("strict", ...ws, "on");
    expect(strict.code).toBe(0);
    expect((await run("list", ...ws)).err).toMatch(/^Strict mode is on: .*named transforms/);
    const config = loadConfig({ TROVE_DATA_DIR: dir });
    const db = await openDatabase(config.database);
    try {
      const workspace = await db.prisma.workspace.findUniqueOrThrow({ where: { workspaceNo } });
      expect(workspace.strictTransforms).toBe(true);
      const stored = await db.prisma.namedTransform.findMany({ where: { workspaceId: workspace.id } });
      expect(stored.map((row) => row.name).sort()).toEqual(["card", "thumb"]);
    } finally {
      await db.close();
    }
    expect((await run("strict", ...ws, "off")).code).toBe(0);
    expect((await run("list", ...ws)).err).toBe("Strict mode is off.");

    expect((await run("rm", ...ws, "thumb")).code).toBe(0);
    expect((await run("list", ...ws)).out).toBe("t_card w_400,h_300,c_fill,f_jpg");
  }, 60_000);

  it("refuses bad named transforms with a message and no stack", async () => {
    const cases: [args: string[], code: number, message: RegExp][] = [
      [["set", "--workspace", workspaceNo, "Card", "w_1"], 1, /"Card" is not a transform name/],
      [
        ["set", "--workspace", workspaceNo, "bad", "q_200"],
        1,
        /Invalid transform: q_200: quality must be 1\.\.100/,
      ],
      [["set", "--workspace", workspaceNo, "bad", "t_card"], 1, /cannot use another one/],
      [["set", "--workspace", workspaceNo, "bad", "r_0"], 1, /does nothing/],
      [["rm", "--workspace", workspaceNo, "missing"], 1, /No named transform t_missing/],
      [["strict", "--workspace", workspaceNo, "maybe"], 2, /must be on or off/],
      [["list", "--workspace", "nope"], 1, /No workspace nope/],
    ];
    for (const [args, code, message] of cases) {
      const call = io();
      expect(await runCli(["transforms", ...args], call.io), args.join(" ")).toBe(code);
      const err = call.err.join("\n");
      expect(err, args.join(" ")).toMatch(message);
      expect(err, args.join(" ")).not.toMatch(/\n\s+at /);
    }
  }, 60_000);

  it("a loopback webhook URL is refused naming the setting that allows it, and added with it", async () => {
    const url = "http://127.0.0.1:4000/webhooks";
    const refused = io();
    expect(await runCli(["webhooks", "add", "--workspace", workspaceNo, "--url", url], refused.io)).toBe(1);
    expect(refused.err.join("\n")).toContain(
      "webhook_url resolves to a private or loopback address; set TROVE_TRUSTED_RANGES on the server to allow its range",
    );
    const trusted = io();
    const env = { TROVE_DATA_DIR: dir, TROVE_TRUSTED_RANGES: "127.0.0.0/8" };
    expect(
      await runCli(["webhooks", "add", "--workspace", workspaceNo, "--url", url], { ...trusted.io, env }),
    ).toBe(0);
    expect(trusted.err.join("\n")).toContain(`Endpoint added: ${url}`);
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
