/**
 * Keeps the stored delivery variants of each file (and of each origin object, a source's cached
 * original) under `maxPerFile`, evicting the least recently used. Without it every distinct
 * transform of every public image, asked for by anyone, would stay in storage forever. Rows
 * (`file_variants`) go with their owner by foreign key; the objects go with it through
 * deleteFileObjects (the variant prefix).
 *
 * Bookkeeping is off the response's path: `stored` (called once the variant's object is
 * written, so no row ever names a variant that is not stored) records the row in the background,
 * and a failure is logged, never turned into an error for a response already sent. Rows are
 * written in batches, one statement on the direct path (src/db/direct-sql.ts) per batch: the
 * rows of up to ROW_FLUSH_DELAY_MS, or ROW_BATCH of them, whichever comes first (a fresh render
 * is tens of ms of CPU; a Prisma upsert per render added a tenth to it, bench 11). Eviction is
 * amortised: an owner's variants are counted a second (EVICT_DELAY_MS) after its first unchecked
 * render, or at once when EVICT_BATCH renders of it are unchecked; so a burst leaves a file at
 * most `maxPerFile + 2 × EVICT_BATCH` variants per process (those not yet counted, and those of a
 * count under way), and `maxPerFile` again about a second after it. `settled()` runs what is
 * deferred and resolves when all of it has finished (tests, app close, anything that reads the
 * rows right after a response).
 *
 * Admission: once an owner has had variants evicted (it is at its cap), a variant it has not
 * stored is stored only when it is asked for a second time (`admits`). Without that, anyone
 * holding a public URL could flush a popular image's variants by asking for `maxPerFile` transforms
 * nobody else wants (every legitimate request would then render again), and every such
 * one-off transform would cost a write, a row and an eviction. The first request of a variant
 * is still rendered and answered, only not kept. This process remembers up to REMEMBERED_FIRSTS
 * variants asked for once, each for FIRST_REQUEST_TTL_MS; a flood beyond that makes a variant
 * wait for one more request, nothing worse. An owner below its cap stores every render.
 *
 * Use is recorded on every render and on cache hits at most once a minute per variant and
 * process, so a hot variant costs no write per request. Variants stored before rows existed have
 * none until their next hit; the thumbnail (the file's `thumbnailKey`) is never tracked or evicted.
 */
import type { FastifyBaseLogger } from "fastify";
import type { RawQuery } from "../db/direct-sql.js";
import { Prisma } from "../generated/prisma/client.js";
import type { StorageDriver } from "../storage/driver.js";

/** How long a variant asked for once is remembered, for admission at its second request, ms. */
export const FIRST_REQUEST_TTL_MS = 10 * 60_000;
/** Variants asked for once that this process remembers; the memory is dropped beyond it. */
const REMEMBERED_FIRSTS = 10_000;
/** Owners this process remembers to be at their cap; the memory is dropped beyond it. */
const REMEMBERED_FULL_OWNERS = 10_000;
/** How stale a recorded use may be. */
const USE_RESOLUTION_MS = 60_000;
/** Variants whose last recorded use this process remembers; the memory is dropped beyond it. */
const REMEMBERED_USES = 10_000;
/** Longest an owner's renders wait for the count that evicts beyond the cap, ms. */
export const EVICT_DELAY_MS = 1000;
/** Unchecked renders of one owner that trigger the count at once. */
export const EVICT_BATCH = 16;
/** Longest a row waits for others to share its statement, ms. */
export const ROW_FLUSH_DELAY_MS = 50;
/** Rows that are written at once, without waiting out the delay. */
export const ROW_BATCH = 64;

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

/** Rows waiting for their statement, and the promise that statement settles. */
interface RowBatch {
  rows: Map<string, { owner: VariantOwner; at: Date; size: number | null }>;
  written: Promise<void>;
  write(): void;
  timer: NodeJS.Timeout;
}

const ownerId = (owner: VariantOwner) =>
  "fileId" in owner ? `f:${owner.fileId}` : `o:${owner.originObjectId}`;

/** The owner's column: one of two fixed names, never a value from a request. */
const ownerColumn = (owner: VariantOwner) => Prisma.raw("fileId" in owner ? "file_id" : "origin_object_id");
const ownerValue = (owner: VariantOwner) => ("fileId" in owner ? owner.fileId : owner.originObjectId);

export class VariantStore {
  readonly #recordedUses = new Map<string, number>();
  /** Owners whose last count evicted variants: at their cap. */
  readonly #fullOwners = new Set<string>();
  /** Variants of full owners asked for once and not stored, with when. */
  readonly #firstRequests = new Map<string, number>();
  readonly #unchecked = new Map<string, Unchecked>();
  /** Bookkeeping under way (rows, counts, evictions), for `settled()`. */
  readonly #running = new Set<Promise<void>>();
  #batch: RowBatch | null = null;

  constructor(
    private readonly sql: RawQuery,
    private readonly storage: Pick<StorageDriver, "delete">,
    private readonly maxPerFile: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Whether a variant just rendered should be stored: always while its owner is below its cap,
   * else only at its second request (see the header).
   */
  admits(owner: VariantOwner, cacheKey: string): boolean {
    if (!this.#fullOwners.has(ownerId(owner))) return true;
    const now = Date.now();
    const first = this.#firstRequests.get(cacheKey);
    if (first !== undefined && first > now - FIRST_REQUEST_TTL_MS) {
      this.#firstRequests.delete(cacheKey);
      return true;
    }
    if (this.#firstRequests.size >= REMEMBERED_FIRSTS) this.#firstRequests.clear();
    this.#firstRequests.set(cacheKey, now);
    return false;
  }

  /**
   * A variant was just rendered and its object written: record its row, and evict beyond the cap
   * soon (see the header). Returns at once; failures are logged.
   */
  stored(owner: VariantOwner, cacheKey: string, size?: number): void {
    const record = this.#record(owner, cacheKey, size ?? null).catch((error: unknown) =>
      this.log.warn({ err: error, cacheKey }, "stored variant not recorded"),
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
    this.#record(owner, cacheKey, null).catch((error: unknown) =>
      this.log.debug({ err: error, cacheKey }, "variant use not recorded"),
    );
  }

  /** Runs the deferred rows and evictions now; resolves when all of it begun has finished. */
  async settled(): Promise<void> {
    this.#batch?.write();
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
    this.#batch?.write();
    this.#track(
      Promise.allSettled(unchecked.records)
        .then(() => this.#evict(unchecked.owner))
        .catch((error: unknown) =>
          this.log.warn({ err: error, owner: unchecked.owner }, "variants not evicted"),
        ),
    );
  }

  /** The owner's rows beyond the cap, least recently used first, deleted in one statement. */
  async #evict(owner: VariantOwner): Promise<void> {
    const column = ownerColumn(owner);
    // Rows first: a request that finds the object gone renders it again, which is correct.
    const evicted = await this.sql.$queryRaw<Array<{ cacheKey: string }>>`
      DELETE FROM file_variants
       WHERE cache_key IN (
             SELECT cache_key FROM file_variants
              WHERE ${column} = ${ownerValue(owner)}::uuid
              ORDER BY last_used_at DESC, cache_key ASC
             OFFSET ${this.maxPerFile})
      RETURNING cache_key AS "cacheKey"`;
    this.#markFull(owner, evicted.length > 0);
    for (const { cacheKey } of evicted) await this.storage.delete(cacheKey);
  }

  #markFull(owner: VariantOwner, full: boolean): void {
    const id = ownerId(owner);
    if (!full) {
      this.#fullOwners.delete(id);
      return;
    }
    if (this.#fullOwners.size >= REMEMBERED_FULL_OWNERS) this.#fullOwners.clear();
    this.#fullOwners.add(id);
  }

  #track(task: Promise<void>): Promise<void> {
    this.#running.add(task);
    void task.finally(() => this.#running.delete(task));
    return task;
  }

  /** Adds the row to the next batch; settles when that batch's statement has. */
  #record(owner: VariantOwner, cacheKey: string, size: number | null): Promise<void> {
    if (this.#recordedUses.size >= REMEMBERED_USES) this.#recordedUses.clear();
    const at = new Date();
    this.#recordedUses.set(cacheKey, at.getTime());
    const batch = this.#batch ?? this.#openBatch();
    // A use recorded after the render in the same batch keeps the render's size.
    batch.rows.set(cacheKey, { owner, at, size: size ?? batch.rows.get(cacheKey)?.size ?? null });
    if (batch.rows.size >= ROW_BATCH) batch.write();
    return batch.written;
  }

  #openBatch(): RowBatch {
    let start = () => {};
    const begun = new Promise<void>((resolve) => {
      start = resolve;
    });
    const batch: RowBatch = {
      rows: new Map(),
      written: begun.then(() => this.#writeRows([...batch.rows])),
      write: () => {
        if (this.#batch !== batch) return;
        this.#batch = null;
        clearTimeout(batch.timer);
        start();
      },
      timer: setTimeout(() => batch.write(), ROW_FLUSH_DELAY_MS),
    };
    batch.timer.unref();
    this.#batch = batch;
    this.#track(batch.written.catch(() => {}));
    return batch;
  }

  /**
   * One statement for the batch. A row whose owner was deleted meanwhile would fail the whole
   * statement (its foreign key), so owners that are gone are skipped in the statement itself.
   */
  async #writeRows(
    rows: Array<[string, { owner: VariantOwner; at: Date; size: number | null }]>,
  ): Promise<void> {
    const fileIds = rows.map(([, row]) => ("fileId" in row.owner ? row.owner.fileId : null));
    const originIds = rows.map(([, row]) =>
      "originObjectId" in row.owner ? row.owner.originObjectId : null,
    );
    await this.sql.$queryRaw`
      INSERT INTO file_variants (cache_key, file_id, origin_object_id, last_used_at, size)
      SELECT v.cache_key, v.file_id, v.origin_object_id, v.last_used_at, v.size
        FROM unnest(${rows.map(([cacheKey]) => cacheKey)}::text[], ${fileIds}::uuid[],
                    ${originIds}::uuid[], ${rows.map(([, row]) => row.at)}::timestamptz[],
                    ${rows.map(([, row]) => row.size)}::bigint[])
             AS v(cache_key, file_id, origin_object_id, last_used_at, size)
       WHERE EXISTS (SELECT 1 FROM files f WHERE f.id = v.file_id)
          OR EXISTS (SELECT 1 FROM origin_objects o WHERE o.id = v.origin_object_id)
      ON CONFLICT (cache_key) DO UPDATE SET last_used_at = EXCLUDED.last_used_at,
        size = coalesce(EXCLUDED.size, file_variants.size)`;
  }
}
