/**
 * Quotas across two server instances on one PostgreSQL database and one storage root (issue #36):
 * 20 concurrent uploads, half on each instance, against room for 10 files store exactly 10 and
 * count exactly 10; the other 10 are refused with 403 QUOTA_EXCEEDED and leave no object. The
 * pre-check cannot do this (each instance reads the usage before any of them commits): the file
 * insert's trigger, under the usage row's lock, does. Runs when TROVE_TEST_DATABASE_URL names a
 * PostgreSQL server (vitest.config.ts leaves this file out otherwise).
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, startSecondInstance, type TestApp } from "./support/index.js";
import { directUpload, listObjects } from "./uploads-helpers.js";

describe("quotas across two instances (PostgreSQL)", () => {
  let dir: string;
  let first: TestApp;
  let second: FastifyInstance;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trove-quota-pg-"));
    first = await createTestApp();
    if (first.config.database.kind !== "postgres") throw new Error("TROVE_TEST_DATABASE_URL is not set");
    second = await startSecondInstance(first, dir);
  }, 120_000);

  afterAll(async () => {
    await second?.close();
    await first?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("stores and counts exactly max_files of 20 concurrent uploads", { timeout: 120_000 }, async () => {
    const workspaceId = first.workspace.id;
    const files = () => first.app.db.file.count({ where: { workspaceId } });
    const before = await files();
    await first.app.db.workspace.update({
      where: { id: workspaceId },
      data: { maxFiles: BigInt(before + 10) },
    });
    const objectsBefore = new Set(await listObjects(first.storageDir));

    const apps = [first.app, second];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        directUpload(
          { ...first, app: apps[i % 2] as FastifyInstance },
          { file_name: `race-${i}.bin` },
          { content: randomBytes(2048), type: "application/octet-stream" },
        ),
      ),
    );
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    const refused = answers.filter((res) => res.statusCode !== 200);
    expect(refused.map((res) => [res.statusCode, res.json().errorCode])).toEqual(
      Array(10).fill([403, "QUOTA_EXCEEDED"]),
    );

    expect(await files()).toBe(before + 10);
    const usage = await first.app.db.workspaceUsage.findUniqueOrThrow({ where: { workspaceId } });
    expect(Number(usage.files)).toBe(before + 10);
    const added = (await listObjects(first.storageDir)).filter((key) => !objectsBefore.has(key));
    expect(added.filter((key) => key.startsWith(`${workspaceId}/`))).toHaveLength(10);
  });
});
