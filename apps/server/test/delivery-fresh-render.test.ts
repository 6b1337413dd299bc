// A fresh render's critical path (issue #32, bench 11): the answer waits for the render and the
// variant's write, never for its row or the eviction, which run after it (and are amortised);
// a failure there is logged and costs no response; concurrent identical requests render once.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RawQuery } from "../src/db/direct-sql.js";
import type { DeliveryFile } from "../src/delivery/delivery-file.js";
import { RenderGate } from "../src/delivery/render-gate.js";
import { VariantRenderer } from "../src/delivery/variant-renderer.js";
import { EVICT_BATCH, EVICT_DELAY_MS, ROW_BATCH, VariantStore } from "../src/delivery/variant-store.js";
import { Prisma } from "../src/generated/prisma/client.js";
import { resolveMediaLimits } from "../src/media/media-limits.js";
import type { PutOptions, PutResult } from "../src/storage/driver.js";
import { FsStorageDriver } from "../src/storage/fs-driver.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { solid } from "./support/test-images.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

/** An fs driver that counts writes of variants (each one is one render). */
class CountingStorage extends FsStorageDriver {
  variantPuts = 0;
  override async put(key: string, body: Readable, options?: PutOptions): Promise<PutResult> {
    if (key.startsWith("variants/")) this.variantPuts++;
    return super.put(key, body, options);
  }
}

/** A promise and the function that resolves it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * The test app's direct SQL, counting the statements VariantStore sends (an INSERT per batch of
 * rows, a DELETE per eviction count). `hold` makes each wait for it; `failInserts` fails the
 * row writes.
 */
function countingSql(sql: RawQuery) {
  const calls = { insert: 0, delete: 0 };
  const state = { hold: null as Promise<void> | null, failInserts: false };
  const counted: RawQuery = {
    async $queryRaw<T>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T> {
      const text = query instanceof Prisma.Sql ? query.sql : query.join("?");
      const kind = /^\s*INSERT/.test(text) ? "insert" : "delete";
      calls[kind]++;
      await state.hold;
      if (kind === "insert" && state.failInserts) throw new Error("database unavailable");
      return sql.$queryRaw<T>(query, ...values);
    },
  };
  return { sql: counted, calls, state };
}

function fakeLog() {
  const warn = vi.fn();
  const log = { warn, debug: vi.fn(), info: vi.fn(), error: vi.fn() } as unknown as FastifyBaseLogger;
  return { log, warn };
}

const roots: string[] = [];
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

/** A renderer over the test app's storage and database, for one stored PNG, counting statements. */
async function rendererWith(maxPerFile = 100) {
  const root = await mkdtemp(join(tmpdir(), "trove-fresh-render-"));
  roots.push(root);
  const storage = new CountingStorage(root);
  t = await createTestApp({ storage });
  const png = await solid(64, 48, { r: 10, g: 200, b: 30 }, "png");
  const body = uploaded(await directUpload(t, { file_name: "green.png" }, { content: png }));
  const row = await t.app.db.file.findUniqueOrThrow({ where: { id: body.id } });
  const db = t.app.db;
  const statements = countingSql(t.app.database.sql);
  const { log, warn } = fakeLog();
  const variants = new VariantStore(statements.sql, storage, maxPerFile, log);
  const renderer = new VariantRenderer({
    storage,
    gate: new RenderGate({ concurrency: 1, queue: 4, waitMs: 10_000 }),
    limits: resolveMediaLimits(),
    variants,
    log,
  });
  const file = { id: row.id, storageKey: row.storageKey, thumbnailKey: null } as DeliveryFile;
  const render = (width: number) =>
    renderer.render({
      file,
      owner: { fileId: file.id },
      canonical: `w_${width}`,
      accept: undefined,
      cacheKey: `variants/test/w_${width}`,
    });
  const rows = async () =>
    (await db.fileVariant.findMany({ where: { fileId: row.id }, orderBy: { cacheKey: "asc" } })).map(
      (variant) => variant.cacheKey,
    );
  return { storage, ...statements, rows, warn, variants, render, fileId: row.id };
}

describe("a fresh render's answer", () => {
  // The deferred count's timer runs when a test says so, however slow the machine.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("does not wait for the variant's row or the eviction, and the variant is stored before it", async () => {
    const { storage, calls, state, rows, variants, render } = await rendererWith(1);
    const held = gate();
    state.hold = held.opened;
    const rendered = await render(20);
    expect(await sharp(rendered.body).metadata()).toMatchObject({ width: 20, height: 15 });
    // Answered before the row is written; the object is in storage already.
    expect(await rows()).toEqual([]);
    expect(await storage.exists("variants/test/w_20")).toBe(true);
    await render(30);
    expect(calls.delete).toBe(0);
    held.open();
    await variants.settled();
    // One statement for both rows, one count for both renders, and the cap of 1 kept: the
    // older variant evicted, row and object.
    expect(calls).toEqual({ insert: 1, delete: 1 });
    const kept = await rows();
    expect(kept).toHaveLength(1);
    expect(
      [await storage.exists("variants/test/w_20"), await storage.exists("variants/test/w_30")].filter(
        Boolean,
      ),
    ).toHaveLength(1);
    expect(await storage.exists(kept[0] as string)).toBe(true);
  });

  it("logs a failed row write, answers anyway, and records the variant on its next render", async () => {
    const { state, rows, warn, variants, render } = await rendererWith();
    state.failInserts = true;
    expect((await render(20)).body.length).toBeGreaterThan(0);
    await variants.settled();
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ cacheKey: "variants/test/w_20" }),
      "stored variant not recorded",
    );
    expect(await rows()).toEqual([]);
    state.failInserts = false;
    const again = await render(20);
    expect(await sharp(again.body).metadata()).toMatchObject({ width: 20, height: 15 });
    await variants.settled();
    expect(await rows()).toEqual(["variants/test/w_20"]);
  });

  it("records no row for a variant whose write failed", async () => {
    const { storage, calls, rows, warn, variants, render } = await rendererWith();
    vi.spyOn(storage, "put").mockRejectedValueOnce(new Error("disk full"));
    expect((await render(20)).body.length).toBeGreaterThan(0);
    await variants.settled();
    expect(warn).toHaveBeenCalledWith(expect.anything(), "rendered variant not cached");
    expect(calls.insert).toBe(0);
    expect(await rows()).toEqual([]);
    expect(await storage.exists("variants/test/w_20")).toBe(false);
  });

  it(`writes the rows of many renders in one statement, at once when ${ROW_BATCH} are waiting`, async () => {
    const { calls, rows, variants, render, fileId } = await rendererWith(1000);
    for (let width = 10; width < 15; width++) await render(width);
    // The batch waits for its timer (faked here), so nothing is written yet.
    expect(calls.insert).toBe(0);
    await variants.settled();
    expect(calls.insert).toBe(1);
    expect(await rows()).toHaveLength(5);
    // A full batch goes without waiting for the timer.
    for (let i = 0; i < ROW_BATCH; i++) variants.used({ fileId }, `variants/test/used-${i}`);
    await vi.waitFor(() => expect(calls.insert).toBe(2));
    await variants.settled();
    expect(await rows()).toHaveLength(5 + ROW_BATCH);
  });

  it("skips the row of an owner deleted meanwhile and writes the others of its batch", async () => {
    const { rows, warn, variants, render } = await rendererWith();
    await render(20);
    variants.stored({ fileId: "00000000-0000-4000-8000-000000000000" }, "variants/test/orphan");
    await variants.settled();
    expect(warn).not.toHaveBeenCalled();
    expect(await rows()).toEqual(["variants/test/w_20"]);
    expect(await t?.app.db.fileVariant.count()).toBe(1);
  });

  it(`counts an owner's variants at once after ${EVICT_BATCH} renders, not on every render`, async () => {
    const { calls, rows, render } = await rendererWith(4);
    for (let width = 10; width < 10 + EVICT_BATCH - 1; width++) await render(width);
    expect(calls.delete).toBe(0);
    await render(10 + EVICT_BATCH);
    await vi.waitFor(() => expect(calls.delete).toBe(1));
    await vi.waitFor(async () => expect(await rows()).toHaveLength(4));
  });

  it("runs the deferred count on its own a second after the first unchecked render", async () => {
    const { calls, rows, render } = await rendererWith(1);
    await render(20);
    await render(30);
    vi.advanceTimersByTime(EVICT_DELAY_MS - 1);
    expect(calls.delete).toBe(0);
    vi.advanceTimersByTime(1);
    await vi.waitFor(() => expect(calls.delete).toBe(1));
    await vi.waitFor(async () => expect(await rows()).toHaveLength(1));
  });
});

describe("concurrent identical requests", () => {
  it("render once, and every one is answered with the variant", async () => {
    const root = await mkdtemp(join(tmpdir(), "trove-fresh-render-app-"));
    roots.push(root);
    const storage = new CountingStorage(root);
    t = await createTestApp({ storage });
    const png = await solid(64, 48, { r: 10, g: 200, b: 30 }, "png");
    uploaded(await directUpload(t, { file_name: "green.png" }, { content: png }));
    const app = t.app;
    const url = `/assets/${t.workspace.workspaceNo}/w_24/green.png`;
    const answers = await Promise.all(Array.from({ length: 4 }, () => app.inject({ method: "GET", url })));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    for (const answer of answers) {
      expect(await sharp(answer.rawPayload).metadata()).toMatchObject({ width: 24, height: 18 });
    }
    expect(storage.variantPuts).toBe(1);
    await app.delivery.settled();
    expect(await app.db.fileVariant.count()).toBe(1);
    expect((await app.inject({ method: "GET", url })).headers["x-cache"]).toBe("HIT");
  });
});

describe("a variant request's queries", () => {
  it("reads strict mode with the workspace: no query of its own for a transform without named steps", async () => {
    t = await createTestApp();
    const png = await solid(64, 48, { r: 10, g: 200, b: 30 }, "png");
    uploaded(await directUpload(t, { file_name: "green.png" }, { content: png }));
    const app = t.app;
    const raw = vi.spyOn(app.db, "$queryRaw");
    const answer = await app.inject({
      method: "GET",
      url: `/assets/${t.workspace.workspaceNo}/w_16/green.png`,
    });
    expect(answer.statusCode).toBe(200);
    expect(raw).not.toHaveBeenCalled();
  });
});

describe("a fresh render of an original missing from storage", () => {
  it("is a 404 in the files envelope, not a 5xx", async () => {
    t = await createTestApp();
    const png = await solid(64, 48, { r: 10, g: 200, b: 30 }, "png");
    const body = uploaded(await directUpload(t, { file_name: "gone.png" }, { content: png }));
    const row = await t.app.db.file.findUniqueOrThrow({ where: { id: body.id } });
    await t.app.storage.delete(row.storageKey);
    const answer = await t.app.inject({
      method: "GET",
      url: `/assets/${t.workspace.workspaceNo}/w_16/gone.png`,
    });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ error: "File not found" });
  });
});
