// A fresh render's critical path (issue #32, bench 11): the answer waits for the render and the
// variant's write, never for its row or the eviction, which run after it (and are amortised);
// a failure there is logged and costs no response; concurrent identical requests render once.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PrismaClient } from "../src/db/database.js";
import type { DeliveryFile } from "../src/delivery/delivery-file.js";
import { RenderGate } from "../src/delivery/render-gate.js";
import { VariantRenderer } from "../src/delivery/variant-renderer.js";
import { EVICT_BATCH, EVICT_DELAY_MS, VariantStore } from "../src/delivery/variant-store.js";
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
 * The `file_variants` calls VariantStore makes, kept in memory. `hold` makes each call wait for
 * it; `failUpserts` makes upserts fail.
 */
function fakeVariantRows() {
  const rows = new Map<string, { fileId: string; lastUsedAt: Date }>();
  const calls = { upsert: 0, findMany: 0, deleteMany: 0 };
  const state = { hold: null as Promise<void> | null, failUpserts: false };
  const fileVariant = {
    async upsert(args: { where: { cacheKey: string }; create: { fileId: string; lastUsedAt: Date } }) {
      calls.upsert++;
      await state.hold;
      if (state.failUpserts) throw new Error("database unavailable");
      rows.set(args.where.cacheKey, { fileId: args.create.fileId, lastUsedAt: args.create.lastUsedAt });
    },
    async findMany(args: { where: { fileId: string }; skip: number }) {
      calls.findMany++;
      await state.hold;
      return [...rows.entries()]
        .filter(([, row]) => row.fileId === args.where.fileId)
        .sort(([a, x], [b, y]) => y.lastUsedAt.getTime() - x.lastUsedAt.getTime() || a.localeCompare(b))
        .slice(args.skip)
        .map(([cacheKey]) => ({ cacheKey }));
    },
    async deleteMany(args: { where: { cacheKey: { in: string[] } } }) {
      calls.deleteMany++;
      for (const key of args.where.cacheKey.in) rows.delete(key);
    },
  };
  return { db: { fileVariant } as unknown as PrismaClient, rows, calls, state };
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

/** A renderer over a real fs store holding one PNG, with fake variant rows. */
async function rendererWith(maxPerFile = 100) {
  const root = await mkdtemp(join(tmpdir(), "trove-fresh-render-"));
  roots.push(root);
  const storage = new CountingStorage(root);
  const png = await solid(64, 48, { r: 10, g: 200, b: 30 }, "png");
  await writeFile(join(root, "original.png"), png);
  const rows = fakeVariantRows();
  const { log, warn } = fakeLog();
  const variants = new VariantStore(rows.db, storage, maxPerFile, log);
  const renderer = new VariantRenderer({
    storage,
    gate: new RenderGate({ concurrency: 1, queue: 4, waitMs: 10_000 }),
    limits: resolveMediaLimits(),
    variants,
    log,
  });
  const file = { id: "file-1", storageKey: "original.png", thumbnailKey: null } as DeliveryFile;
  const render = (width: number) =>
    renderer.render({
      file,
      owner: { fileId: file.id },
      canonical: `w_${width}`,
      accept: undefined,
      cacheKey: `variants/test/w_${width}`,
    });
  return { storage, rows, warn, variants, render };
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
    const { storage, rows, variants, render } = await rendererWith(1);
    const held = gate();
    rows.state.hold = held.opened;
    const rendered = await render(20);
    expect(await sharp(rendered.body).metadata()).toMatchObject({ width: 20, height: 15 });
    // Answered while the row's write is still held; the object is in storage already.
    expect(rows.calls.upsert).toBe(1);
    expect(rows.rows.size).toBe(0);
    expect(await storage.exists("variants/test/w_20")).toBe(true);
    await render(30);
    expect(rows.calls.findMany).toBe(0);
    held.open();
    await variants.settled();
    // One count for both renders, and the cap of 1 kept: the older variant evicted.
    expect(rows.calls.findMany).toBe(1);
    expect([...rows.rows.keys()]).toHaveLength(1);
    expect(
      [await storage.exists("variants/test/w_20"), await storage.exists("variants/test/w_30")].filter(
        Boolean,
      ),
    ).toHaveLength(1);
  });

  it("logs a failed row write, answers anyway, and records the variant on its next render", async () => {
    const { rows, warn, variants, render } = await rendererWith();
    rows.state.failUpserts = true;
    expect((await render(20)).body.length).toBeGreaterThan(0);
    await variants.settled();
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ cacheKey: "variants/test/w_20" }),
      "stored variant not recorded",
    );
    expect(rows.rows.size).toBe(0);
    rows.state.failUpserts = false;
    const again = await render(20);
    expect(await sharp(again.body).metadata()).toMatchObject({ width: 20, height: 15 });
    await variants.settled();
    expect([...rows.rows.keys()]).toEqual(["variants/test/w_20"]);
  });

  it("records no row for a variant whose write failed", async () => {
    const { storage, rows, warn, variants, render } = await rendererWith();
    vi.spyOn(storage, "put").mockRejectedValueOnce(new Error("disk full"));
    expect((await render(20)).body.length).toBeGreaterThan(0);
    await variants.settled();
    expect(warn).toHaveBeenCalledWith(expect.anything(), "rendered variant not cached");
    expect(rows.calls.upsert).toBe(0);
    expect(await storage.exists("variants/test/w_20")).toBe(false);
  });

  it(`counts an owner's variants at once after ${EVICT_BATCH} renders, not on every render`, async () => {
    const { rows, render } = await rendererWith(4);
    for (let width = 10; width < 10 + EVICT_BATCH - 1; width++) await render(width);
    expect(rows.calls.findMany).toBe(0);
    await render(10 + EVICT_BATCH);
    await vi.waitFor(() => expect(rows.calls.deleteMany).toBe(1));
    expect(rows.calls.findMany).toBe(1);
    expect(rows.rows.size).toBe(4);
  });

  it("runs the deferred count on its own a second after the first unchecked render", async () => {
    const { rows, render } = await rendererWith(1);
    await render(20);
    await render(30);
    vi.advanceTimersByTime(EVICT_DELAY_MS - 1);
    expect(rows.calls.findMany).toBe(0);
    vi.advanceTimersByTime(1);
    await vi.waitFor(() => expect(rows.calls.deleteMany).toBe(1));
    expect(rows.calls.findMany).toBe(1);
    expect(rows.rows.size).toBe(1);
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
