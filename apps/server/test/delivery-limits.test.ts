// The delivery host's limits on work anyone can ask for: renders pass a gate (N at once, a short
// queue, then 503 with Retry-After in the files envelope), and each file keeps at most N stored
// variants, the least recently used evicted first.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { LightMyRequestResponse } from "fastify";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FIRST_REQUEST_TTL_MS } from "../src/delivery/variant-store.js";
import { variantCachePrefix } from "../src/media/variant-cache-key.js";
import type { PutOptions, PutResult } from "../src/storage/driver.js";
import { FsStorageDriver } from "../src/storage/fs-driver.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { solid } from "./support/test-images.js";
import { directUpload, listObjects, uploaded } from "./uploads-helpers.js";

/** An fs driver whose writes of variants wait until `release()`. */
class HoldingStorage extends FsStorageDriver {
  holding = false;
  readonly #waiting: (() => void)[] = [];
  get waiting(): number {
    return this.#waiting.length;
  }
  release() {
    this.holding = false;
    for (const resume of this.#waiting.splice(0)) resume();
  }
  override async put(key: string, body: Readable, options?: PutOptions): Promise<PutResult> {
    if (this.holding && key.startsWith("variants/")) {
      await new Promise<void>((resume) => this.#waiting.push(resume));
    }
    return super.put(key, body, options);
  }
}

let t: TestApp | undefined;
let root: string | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await t?.close();
  if (root) await rm(root, { recursive: true, force: true });
  t = undefined;
});

async function appWith(delivery: Record<string, number>) {
  root = await mkdtemp(join(tmpdir(), "trove-delivery-limits-"));
  const storage = new HoldingStorage(root);
  t = await createTestApp({ storage, config: { delivery } });
  const png = await solid(64, 48, { r: 10, g: 200, b: 30 }, "png");
  const body = uploaded(await directUpload(t, { file_name: "green.png" }, { content: png }));
  const row = await t.app.db.file.findUniqueOrThrow({ where: { id: body.id } });
  const app = t.app;
  const get = (transform: string) =>
    app.inject({ method: "GET", url: `/assets/${t?.workspace.workspaceNo}/${transform}/green.png` });
  /** Takes one slot of the render gate until the returned function is called. */
  const holdSlot = async () => {
    let free = () => {};
    const held = new Promise<void>((resolve) => {
      free = resolve;
    });
    const running = app.renderGate.load.running;
    void app.renderGate.run(() => held);
    await vi.waitFor(() => expect(app.renderGate.load.running).toBe(running + 1));
    return free;
  };
  return { storage, row, get, holdSlot };
}

describe("render gate", () => {
  it("answers 503 with Retry-After in the files envelope when every slot and the queue are taken", async () => {
    const { get, holdSlot } = await appWith({ renderConcurrency: 1, renderQueue: 0, renderWaitMs: 2000 });
    const free = await holdSlot();
    const busy = await get("w_11");
    expect(busy.statusCode).toBe(503);
    expect(busy.headers["retry-after"]).toBe("2");
    // The variant's caching headers were set before the render was refused: none may stay on the
    // error, or a shared cache would keep the 503 for a year.
    expect(busy.headers["cache-control"]).toBe("no-store");
    expect(busy.headers).not.toHaveProperty("etag");
    expect(busy.headers).not.toHaveProperty("last-modified");
    expect(busy.json()).toEqual({
      error: "Service Unavailable",
      message: "The image renderer is busy; retry in 2 seconds",
    });
    free();
    expect((await get("w_11")).statusCode).toBe(200);
  });

  it("admits transform uploads through the same gate: 503 in the upload envelope, nothing stored", async () => {
    const { get, holdSlot } = await appWith({ renderConcurrency: 1, renderQueue: 0, renderWaitMs: 1000 });
    const free = await holdSlot();
    const app = t as TestApp;
    const before = await app.app.db.file.count();
    const png = await solid(40, 30, { r: 1, g: 2, b: 3 }, "png");
    const busy = await directUpload(app, { file_name: "busy.png", transform: "w_20" }, { content: png });
    expect(busy.statusCode).toBe(503);
    expect(busy.headers["retry-after"]).toBe("1");
    expect(busy.json()).toMatchObject({ success: false, errorCode: "SERVICE_UNAVAILABLE" });
    expect(await app.app.db.file.count()).toBe(before);
    // Without a transform an upload renders nothing and is not held back.
    expect((await directUpload(app, { file_name: "plain.png" }, { content: png })).statusCode).toBe(200);
    free();
    expect((await get("w_10")).statusCode).toBe(200);
  });

  it("queues a render while a slot is taken and runs it when the slot frees", async () => {
    const { storage, get, holdSlot } = await appWith({
      renderConcurrency: 1,
      renderQueue: 1,
      renderWaitMs: 60_000,
    });
    storage.holding = true;
    const free = await holdSlot();
    const second = get("w_12");
    // The render waits in the queue: it reaches nothing until the slot frees.
    await vi.waitFor(() => expect((t as TestApp).app.renderGate.load.waiting).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(storage.waiting).toBe(0);
    free();
    await vi.waitFor(() => expect(storage.waiting).toBe(1));
    storage.release();
    expect((await second).statusCode).toBe(200);
  });

  it("frees the slot before the variant is written: a slow write does not hold the next render back", async () => {
    const { storage, get } = await appWith({ renderConcurrency: 1, renderQueue: 0, renderWaitMs: 60_000 });
    storage.holding = true;
    const first = get("w_10");
    await vi.waitFor(() => expect(storage.waiting).toBe(1));
    // With the only slot and no queue, this would be a 503 if the first write held the slot.
    const second = get("w_12");
    await vi.waitFor(() => expect(storage.waiting).toBe(2));
    storage.release();
    expect((await first).statusCode).toBe(200);
    expect((await second).statusCode).toBe(200);
  });
});

/** The variants of the app's one file in storage, and `keyOf` to render one and name its object. */
function storedVariants(
  row: { id: string; storageKey: string },
  get: (transform: string) => Promise<LightMyRequestResponse>,
) {
  const stored = async () =>
    (await listObjects(root as string)).filter((key) => key.startsWith(variantCachePrefix(row.storageKey)));
  const keyOf = async (transform: string) => {
    const before = new Set(await stored());
    expect((await get(transform)).headers["x-cache"]).toBe("MISS");
    // The variant's row and the eviction run after the response.
    await t?.app.delivery.settled();
    const added = (await stored()).filter((key) => !before.has(key));
    expect(added).toHaveLength(1);
    return added[0] as string;
  };
  const rows = async () => t?.app.db.fileVariant.count({ where: { fileId: row.id } });
  return { stored, keyOf, rows };
}

describe("stored variants per file", () => {
  it("keeps at most N, evicting the least recently used, and never the thumbnail", async () => {
    const { row, get } = await appWith({ maxVariantsPerFile: 2 });
    const { stored, keyOf } = storedVariants(row, get);
    const w10 = await keyOf("w_10");
    const w20 = await keyOf("w_20");
    // A minute later w_10 is used again, so w_20 is now the least recently used.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    expect((await get("w_10")).headers["x-cache"]).toBe("HIT");
    await vi.waitFor(async () => {
      const used = await t?.app.db.fileVariant.findUniqueOrThrow({ where: { cacheKey: w10 } });
      expect(used?.lastUsedAt.getTime()).toBeGreaterThan(Date.now() - 1000);
    });
    vi.setSystemTime(Date.now() + 1000);
    const w30 = await keyOf("w_30");
    expect((await stored()).sort()).toEqual([w10, w30].sort());
    expect(await t?.app.db.fileVariant.count({ where: { fileId: row.id } })).toBe(2);
    expect(await t?.app.db.fileVariant.findUnique({ where: { cacheKey: w20 } })).toBeNull();
    // The evicted variant renders again on request.
    expect((await get("w_20")).headers["x-cache"]).toBe("MISS");

    // The thumbnail is not one of the N.
    const thumbnail = await get("w_256,h_256,c_limit,f_webp");
    expect(thumbnail.statusCode).toBe(200);
    await t?.app.delivery.settled();
    expect(await t?.app.db.fileVariant.count({ where: { fileId: row.id } })).toBe(2);
  });

  it("once a file is at its cap, keeps a new variant only at its second request: one-off transforms cannot flush it", async () => {
    const { row, get } = await appWith({ maxVariantsPerFile: 2 });
    const { stored, keyOf, rows } = storedVariants(row, get);
    await keyOf("w_10");
    const w20 = await keyOf("w_20");
    const w30 = await keyOf("w_30"); // evicts w_10: the file is now known to be at its cap
    expect((await stored()).sort()).toEqual([w20, w30].sort());

    // Transforms asked for once are rendered and answered, and neither stored nor recorded.
    for (const width of [41, 42, 43, 44, 45]) {
      const response = await get(`w_${width}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers["x-cache"]).toBe("MISS");
      expect(response.rawPayload.length).toBeGreaterThan(0);
    }
    await t?.app.delivery.settled();
    expect((await stored()).sort()).toEqual([w20, w30].sort());
    expect(await rows()).toBe(2);
    expect((await get("w_20")).headers["x-cache"]).toBe("HIT");
    expect((await get("w_30")).headers["x-cache"]).toBe("HIT");

    // Asked for again, a variant is stored, and evicts the least recently used (w_20).
    const w41 = await keyOf("w_41");
    expect((await stored()).sort()).toEqual([w30, w41].sort());
    expect((await get("w_41")).headers["x-cache"]).toBe("HIT");
    expect(await rows()).toBe(2);

    // A second request long after the first counts as a first one again.
    expect((await get("w_50")).headers["x-cache"]).toBe("MISS");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + FIRST_REQUEST_TTL_MS + 1000);
    expect((await get("w_50")).headers["x-cache"]).toBe("MISS");
    await t?.app.delivery.settled();
    expect((await stored()).sort()).toEqual([w30, w41].sort());
    // ...and the one after it is a second request.
    expect((await get("w_50")).headers["x-cache"]).toBe("MISS");
    await t?.app.delivery.settled();
    expect(await stored()).toHaveLength(2);
    expect((await get("w_50")).headers["x-cache"]).toBe("HIT");
  });

  it("stores every render of a file below its cap", async () => {
    const { row, get } = await appWith({ maxVariantsPerFile: 3 });
    const { stored, keyOf } = storedVariants(row, get);
    const keys = [await keyOf("w_10"), await keyOf("w_20"), await keyOf("w_30")];
    expect((await stored()).sort()).toEqual(keys.sort());
    for (const transform of ["w_10", "w_20", "w_30"])
      expect((await get(transform)).headers["x-cache"]).toBe("HIT");
  });
});
