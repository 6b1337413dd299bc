import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgliteTemplate } from "../../test/support/create-test-app.js";
import { type Database, openDatabase } from "../db/database.js";
import { generateApiKey, hashApiKey, revokeApiKey } from "./api-keys.js";
import { seedDevelopment } from "./seed.js";

describe("development seeding", () => {
  let db: Database;
  const secretKey = randomBytes(32);
  beforeAll(async () => {
    db = await openDatabase({ kind: "pglite", dataDir: null, loadDataDir: await pgliteTemplate() });
  });
  afterAll(async () => {
    await db.close();
  });

  it("creates one workspace with a public and a private key on an empty database, then nothing", async () => {
    const first = await seedDevelopment(db.prisma, { devKeys: {}, secretKey });
    expect(first.createdWorkspace).toBe(true);
    expect(first.created.map((k) => k.type).sort()).toEqual(["private", "public"]);
    expect(first.created[0]?.key).toMatch(/^trove_(pk|sk)_[0-9A-Za-z]{32}$/);
    // The new workspace's webhook secret, in plaintext this once (stored sealed).
    expect(first.webhookSecrets).toEqual([
      { workspaceNo: first.workspace?.workspaceNo, secret: expect.stringMatching(/^whsec_/) },
    ]);
    expect(first.workspace?.webhookSecret).not.toContain(first.webhookSecrets[0]?.secret);
    const second = await seedDevelopment(db.prisma, { devKeys: {}, secretKey });
    expect(second.created).toEqual([]);
    expect(second.createdWorkspace).toBe(false);
    expect(second.webhookSecrets).toEqual([]);
    expect(await db.prisma.workspace.count()).toBe(1);
    expect(await db.prisma.apiKey.count()).toBe(2);
  });

  it("fixed env keys are created once and kept across restarts; _2 gets its own workspace", async () => {
    const devKeys = {
      publicKey: generateApiKey("public"),
      privateKey: generateApiKey("private"),
      privateKey2: generateApiKey("private"),
    };
    const first = await seedDevelopment(db.prisma, { devKeys, secretKey });
    expect(first.created).toHaveLength(3);
    const workspaces = await db.prisma.workspace.count();
    const keys = await db.prisma.apiKey.count();
    for (let restart = 0; restart < 3; restart++) {
      const again = await seedDevelopment(db.prisma, { devKeys, secretKey });
      expect(again.created).toEqual([]);
      expect(again.workspace?.id).toBe(first.workspace?.id);
      expect(again.workspace2?.id).toBe(first.workspace2?.id);
    }
    expect(await db.prisma.workspace.count()).toBe(workspaces);
    expect(await db.prisma.apiKey.count()).toBe(keys);
    expect(first.workspace2?.id).not.toBe(first.workspace?.id);
    const pk = await db.prisma.apiKey.findUniqueOrThrow({ where: { hash: hashApiKey(devKeys.publicKey) } });
    const sk = await db.prisma.apiKey.findUniqueOrThrow({ where: { hash: hashApiKey(devKeys.privateKey) } });
    const sk2 = await db.prisma.apiKey.findUniqueOrThrow({
      where: { hash: hashApiKey(devKeys.privateKey2) },
    });
    expect([pk.type, sk.type, sk2.type]).toEqual(["public", "private", "private"]);
    expect(pk.workspaceId).toBe(sk.workspaceId);
    expect(sk2.workspaceId).not.toBe(sk.workspaceId);

    // A revoked development key stays revoked after a restart.
    await revokeApiKey(db.prisma, devKeys.publicKey);
    await seedDevelopment(db.prisma, { devKeys, secretKey });
    const revoked = await db.prisma.apiKey.findUniqueOrThrow({
      where: { hash: hashApiKey(devKeys.publicKey) },
    });
    expect(revoked.revokedAt).toBeInstanceOf(Date);
  });

  it("refuses a dev key registered with the other type", async () => {
    const key = generateApiKey("private");
    await seedDevelopment(db.prisma, { devKeys: { privateKey: key }, secretKey });
    await expect(seedDevelopment(db.prisma, { devKeys: { publicKey: key }, secretKey })).rejects.toThrow(
      /already registered as a private key/,
    );
  });
});
