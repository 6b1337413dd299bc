/**
 * Keeps the stored delivery variants of each file (and of each origin object, a source's cached
 * original) under `maxPerFile`, evicting the least recently used. Without it every distinct
 * transform of every public image, asked for by anyone, would stay in storage forever. Rows
 * (`file_variants`) go with their owner by foreign key; the objects go with it through
 * deleteFileObjects (the variant prefix).
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

/** Whose variant it is: a stored file's or an origin object's. */
export type VariantOwner = { fileId: string } | { originObjectId: string };

export class VariantStore {
  readonly #recordedUses = new Map<string, number>();

  constructor(
    private readonly db: PrismaClient,
    private readonly storage: Pick<StorageDriver, "delete">,
    private readonly maxPerFile: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A variant was just rendered and stored: record it, then evict beyond the cap. */
  async stored(owner: VariantOwner, cacheKey: string): Promise<void> {
    await this.#record(owner, cacheKey);
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

  /** A cached variant was served: record the use, at most once a minute, without waiting. */
  used(owner: VariantOwner, cacheKey: string): void {
    const now = Date.now();
    if ((this.#recordedUses.get(cacheKey) ?? 0) > now - USE_RESOLUTION_MS) return;
    this.#record(owner, cacheKey).catch((error: unknown) =>
      this.log.debug({ err: error, cacheKey }, "variant use not recorded"),
    );
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
