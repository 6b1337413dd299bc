// The sweep removes stored objects no row points at (an upload killed between storing its bytes
// and committing its row), and keeps everything a file row or an unfinished session names.
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepExpiredSessions } from "../src/multipart/sweep-sessions.js";
import { createTestApp, seedFile, type TestApp } from "./support/index.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const put = (key: string) => t.app.storage.put(key, Readable.from([Buffer.from(key)]));
const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

describe("orphan objects", () => {
  it("removes unreferenced file objects once they are old enough, and nothing else", async () => {
    const live = await seedFile(t.app, t.workspace, { name: "live.jpg" });
    // A key of the swept shape: it survives because its row exists, not because it is skipped.
    expect(live.storageKey).toMatch(/^[0-9a-f-]{36}\/[0-9a-f-]{36}\/live\.jpg$/);
    const orphanFile = `${t.workspace.id}/${randomUUID()}/lost.jpg`;
    const notAnUploadKey = `${t.workspace.id}/something-else.bin`;
    for (const key of [orphanFile, notAnUploadKey]) await put(key);

    // Too recent: an upload may still be about to commit its row.
    expect((await sweepExpiredSessions(t.app.multipartDeps, new Date())).orphanObjects).toBe(0);
    expect(await t.app.storage.exists(orphanFile)).toBe(true);

    const result = await sweepExpiredSessions(t.app.multipartDeps, minutesFromNow(30));
    expect(result.orphanObjects).toBe(1);
    expect(await t.app.storage.exists(orphanFile)).toBe(false);
    expect(await t.app.storage.exists(live.storageKey)).toBe(true);
    expect(await t.app.storage.exists(notAnUploadKey)).toBe(true);
  });
});
