/**
 * The video lifecycle across two server instances on one PostgreSQL database and one storage root
 * (issue #33): concurrent first requests for one new output, half on each instance, make exactly
 * one row and one `video.render` job, and exactly one of them answers `triggered`; the job is run
 * by the other instance's runner; both serve the output after. Runs when TROVE_TEST_DATABASE_URL
 * names a PostgreSQL server (vitest.config.ts leaves this file out otherwise).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobRunner } from "../src/jobs/start-workers.js";
import { createTestApp, startSecondInstance, type TestApp } from "./support/index.js";
import { makeTestVideo } from "./support/test-videos.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

describe("video outputs across two instances (PostgreSQL)", () => {
  let dir: string;
  let first: TestApp;
  let second: FastifyInstance;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trove-video-pg-"));
    first = await createTestApp();
    if (first.config.database.kind !== "postgres") throw new Error("TROVE_TEST_DATABASE_URL is not set");
    second = await startSecondInstance(first, dir);
    const clip = await makeTestVideo(dir, "clip.mp4", [], { seconds: 1 });
    uploaded(await directUpload(first, { file_name: "clip.mp4", folder: "clips" }, { content: clip }));
  }, 120_000);

  afterAll(async () => {
    await second?.close();
    await first?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("queues one job for concurrent first requests on both, run by either, served by both", {
    timeout: 120_000,
  }, async () => {
    const url = `/assets/${first.workspace.workspaceNo}/w_160/clips/clip.mp4`;
    const apps = [first.app, second];
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => apps[i % 2]!.inject({ method: "GET", url })),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array(8).fill(202));
    const statuses = answers.map((res) => (res.json() as { status: string }).status);
    expect(statuses.filter((status) => status === "triggered")).toHaveLength(1);
    expect(statuses.filter((status) => status === "processing")).toHaveLength(7);
    expect(await first.app.db.job.count({ where: { kind: "video.render" } })).toBe(1);
    expect(await first.app.db.videoOutput.count()).toBe(1);

    // Only the second instance runs workers here.
    expect(await createJobRunner(second).runOnce()).toBe(1);
    for (const app of apps) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("video/mp4");
    }
  });
});
