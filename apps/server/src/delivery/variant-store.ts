/**
 * Keeps the stored delivery variants of each file (and of each origin object, a source's cached
 * original) under `maxPerFile`, evicting the least recently used. Without it every distinct
 * transform of every public image, asked for by anyone, would stay in storage forever. Rows
 * (`file_variants`) go with their owner by foreign key; the objects go with it through
 * deleteFileObjects (the variant prefix).
 *
 * Bookkeeping is off the response's path: `stored` (called once the variant's object is
 * written, so no row ever names a variant that is not stored) records the row in the background,
 * and a failure is logged, never turned into an error for a response already sent. Eviction is
 * amortised: an owner's variants are counted a second (EVICT_DELAY_MS) after its first unchecked
 * render, or at once when EVICT_BATCH renders of it are unchecked; so a burst leaves a file at
 * most `maxPerFile + 2 × EVICT_BATCH` variants per process (those not yet counted, and those of a
 * count under way), and `maxPerFile` again about a second after it. `settled()` runs what is
 * deferred and resolves when all of it has finished (tests, app close, anything that reads the
 * rows right after a response).
 *
 * Use is recorded on every render and on cache hits at most once a minute per variant and
 * process, so a hot variant costs no write per request. Variants stored before rows existed have
 * none until their next hit; the thumbnail (the file's `thumbnailKey`) is never tracked or evicted.
 */
import type { FastifyBaseLogger } from "fastify";
import type { PrismaClient } from "../db/database.js";
import type { StorageDriver } from "../storage/driver.js";

/** How stale a recorded use may be. */
const USE_RESOLUTION_MS = 60_000;
/** Variants whose last recorded use this process remembers; the memory is dropped beyond it. */
const REMEMBERED_USES = 10_000;
/** Longest an owner's renders wait for the count that evicts beyond the cap, ms. */
export const EVICT_DELAY_MS = 1000;
/** Unchecked renders of one owner that trigger the count at once. */
export const EVICT_BATCH = 16;

/** Whose variant it is: a stored file's or an origin object's. */
export type VariantOwner = { fileId: string } | { originObjectId: string };

/** An owner's renders not yet followed by an eviction count. */
interface Unchecked {
  owner: VariantOwner;
  renders: number;
  /** The rows of those renders being written: the count waits for them. */
  records: Promise<unknown>[];
  timer: NodeJS.Timeout;
}

const ownerId = (owner: VariantOwner) =>
  "fileId" in owner ? `f:${owner.fileId}` : `o:${owner.originObjectId}`;

export class VariantStore {
  readonly #recordedUses = new Map<string, number>();
  readonly #unchecked = new Map<string, Unchecked>();
  /** Bookkeeping under way (rows, counts, evictions), for `settled()`. */
  readonly #running = new Set<Promise<void>>();

  constructor(
    private readonly db: PrismaClient,
    private readonly storage: Pick<StorageDriver, "delete">,
    private readonly maxPerFile: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * A variant was just rendered and its object written: record its row, and evict beyond the cap
   * soon (see the header). Returns at once; failures are logged.
   */
  stored(owner: VariantOwner, cacheKey: string): void {
    const record = this.#track(
      this.#record(owner, cacheKey).catch((error: unknown) =>
        this.log.warn({ err: error, cacheKey }, "stored variant not recorded"),
      ),
    );
    const id = ownerId(owner);
    let unchecked = this.#unchecked.get(id);
    if (!unchecked) {
      const timer = setTimeout(() => this.#evictNow(id), EVICT_DELAY_MS);
      timer.unref();
      unchecked = { owner, renders: 0, records: [], timer };
      this.#unchecked.set(id, unchecked);
    }
    unchecked.renders += 1;
    unchecked.records.push(record);
    if (unchecked.renders >= EVICT_BATCH) this.#evictNow(id);
  }

  /** A cached variant was served: record the use, at most once a minute, without waiting. */
  used(owner: VariantOwner, cacheKey: string): void {
    const now = Date.now();
    if ((this.#recordedUses.get(cacheKey) ?? 0) > now - USE_RESOLUTION_MS) return;
    this.#record(owner, cacheKey).catch((error: unknown) =>
      this.log.debug({ err: error, cacheKey }, "variant use not recorded"),
    );
  }

  /** Runs the deferred evictions now; resolves when every row and eviction begun has finished. */
  async settled(): Promise<void> {
    for (const id of [...this.#unchecked.keys()]) this.#evictNow(id);
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  /** Drops the deferred evictions (app close): the owner's next render counts again. */
  close(): void {
    for (const unchecked of this.#unchecked.values()) clearTimeout(unchecked.timer);
    this.#unchecked.clear();
  }

  #evictNow(id: string): void {
    const unchecked = this.#unchecked.get(id);
    if (!unchecked) return;
    clearTimeout(unchecked.timer);
    this.#unchecked.delete(id);
    this.#track(
      Promise.allSettled(unchecked.records)
        .then(() => this.#evict(unchecked.owner))
        .catch((error: unknown) =>
          this.log.warn({ err: error, owner: unchecked.owner }, "variants not evicted"),
        ),
    );
  }

  async #evict(owner: VariantOwner): Promise<void> {
    const beyondCap = await this.db.fileVariant.findMany({
      where: owner,
      orderBy: [{ lastUsedAt: "desc" }, { cacheKey: "asc" }],
      skip: this.maxPerFile,
      select: { cacheKey: true },
    });
    if (beyondCap.length === 0) return;
    const keys = beyondCap.map((row) => row.cacheKey);
    // Rows first: a request that finds the object gone renders it again, which is correct.
    await this.db.fileVariant.deleteMany({ where: { cacheKey: { in: keys } } });
    for (const key of keys) await this.storage.delete(key);
  }

  #track(task: Promise<void>): Promise<void> {
    this.#running.add(task);
    void task.finally(() => this.#running.delete(task));
    return task;
  }

  async #record(owner: VariantOwner, cacheKey: string): Promise<void> {
    if (this.#recordedUses.size >= REMEMBERED_USES) this.#recordedUses.clear();
    const now = new Date();
    this.#recordedUses.set(cacheKey, now.getTime());
    await this.db.fileVariant.upsert({
      where: { cacheKey },
      create: { cacheKey, ...owner, lastUsedAt: now },
      update: { lastUsedAt: now },
    });
  }
}
