/**
 * Originals read from a source's origin, kept in Trove's storage (`origin_objects` rows, objects
 * under `origins/<source id>/<uuid>`), so the delivery host reads an origin once per object and
 * TTL rather than once per request.
 *
 * - A copy is fresh for `ttlMs` after the origin last confirmed it. A stale copy is revalidated
 *   with a conditional read (the origin's ETag, else Last-Modified); "not modified" only moves
 *   `checked_at`. A changed object replaces the copy, and the old bytes and their variants go
 *   through the durable object-deletion job, enqueued in the transaction that swaps the row.
 * - A copy read under an older configuration of the source (`source_version` is the source's
 *   `updated_at`) is never served: every server instance reads the source row per request, so a
 *   PATCH takes effect on the next request everywhere.
 * - The origin failing (timeout, unavailable) while a stale copy exists serves the stale copy and
 *   logs a warning; a missing object removes the copy; the other errors propagate.
 * - Concurrent misses for one object in this process share one origin read.
 * - A source that resolves hosts per request (an `image_source` with `canonical_header`) keeps
 *   copies for at most `maxHostsPerSource` hosts besides its base URL's. The host is part of the
 *   key on purpose: under another host name a site may serve other bytes, so dropping it from the
 *   key would serve one host's object under another's name. But any subdomain of the base host is
 *   accepted, and under a wildcard DNS name a visitor can invent them without end, each a full
 *   set of copies and variants. So the first copy for a new host, once the bound is reached,
 *   drops every copy of the host least recently read from the origin (its latest `checked_at`);
 *   the decision is made under a lock on the source row, so concurrent new hosts on several
 *   instances cannot pass the bound together.
 * - Content type and format come from sniffing the stored bytes, never from the origin's header,
 *   exactly as for uploads.
 */

import { createHash, randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { Transform } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import { Prisma, type PrismaClient } from "../../db/database.js";
import type { RawQuery } from "../../db/direct-sql.js";
import { isUniqueViolation } from "../../db/prisma-errors.js";
import { DELETE_OBJECTS_JOB_KIND, type DeleteObjectsPayload } from "../../files/delete-objects-job.js";
import type { OriginObject as OriginObjectRow } from "../../generated/prisma/client.js";
import { enqueueJob } from "../../jobs/job-queue.js";
import { SNIFF_HEAD_BYTES, sniffContent } from "../../media/sniff-content.js";
import { ObjectTooLargeError, type StorageDriver } from "../../storage/driver.js";
import { readObjectHead } from "../../storage/object-keys.js";
import { OriginError, originError } from "./origin-error.js";
import type { OriginReader, OriginValidators } from "./origin-reader.js";
import type { OriginCacheSettings } from "./origin-settings.js";

export type { OriginObjectRow };

/** The source a request names, as the cache needs it. */
export interface CachedSource {
  id: string;
  name: string;
  /** `updated_at`, or `created_at` before any update. */
  version: Date;
}

export interface OriginLookup {
  source: CachedSource;
  reader: OriginReader;
  /** Host the reader resolved for this request ("" when the source has one host). */
  host: string;
  path: string;
  requestHeaders: IncomingHttpHeaders;
}

const DELETE_JOB_MAX_ATTEMPTS = 10;

type Transaction = Prisma.TransactionClient;

export class OriginCache {
  readonly #inFlight = new Map<string, Promise<OriginObjectRow>>();

  constructor(
    private readonly db: PrismaClient,
    /** The per-request lookup of a copy, on the direct path (src/db/direct-sql.ts). */
    private readonly sql: RawQuery,
    private readonly storage: StorageDriver,
    private readonly settings: OriginCacheSettings,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The stored copy of the object, read or revalidated from the origin when needed. */
  async original(lookup: OriginLookup): Promise<OriginObjectRow> {
    const [row = null] = await this.sql.$queryRaw<OriginObjectRow[]>`
      SELECT id::text AS id, source_id::text AS "sourceId", host, path, source_version AS "sourceVersion",
             storage_key AS "storageKey", size, mime_type AS "mimeType", format, hash,
             origin_etag AS "originEtag", origin_last_modified AS "originLastModified",
             checked_at AS "checkedAt"
        FROM origin_objects
       WHERE source_id = ${lookup.source.id}::uuid AND host = ${lookup.host} AND path = ${lookup.path}`;
    const current = row && row.sourceVersion.getTime() === lookup.source.version.getTime() ? row : null;
    if (current && current.checkedAt.getTime() + this.settings.ttlMs > Date.now()) return current;

    const key = `${lookup.source.id}\n${lookup.source.version.getTime()}\n${lookup.host}\n${lookup.path}`;
    let pending = this.#inFlight.get(key);
    if (!pending) {
      pending = this.#refresh(lookup, row, current).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, pending);
    }
    return pending;
  }

  async #refresh(
    lookup: OriginLookup,
    row: OriginObjectRow | null,
    current: OriginObjectRow | null,
  ): Promise<OriginObjectRow> {
    const validators: OriginValidators = {};
    if (current?.originEtag) validators.etag = current.originEtag;
    else if (current?.originLastModified) validators.lastModified = current.originLastModified;
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    let result: Awaited<ReturnType<OriginReader["read"]>>;
    try {
      result = await lookup.reader.read({
        path: lookup.path,
        ...(current ? { validators } : {}),
        maxBytes: this.settings.maxBytes,
        signal,
        requestHeaders: lookup.requestHeaders,
      });
    } catch (error) {
      if (
        current &&
        error instanceof OriginError &&
        (error.kind === "timeout" || error.kind === "unavailable")
      ) {
        this.log.warn(
          { source: lookup.source.name, err: error },
          "origin unavailable: serving the stale copy",
        );
        return current;
      }
      if (row && error instanceof OriginError && error.kind === "not_found") await this.#forget(row);
      throw error;
    }
    if (result.kind === "not-modified") {
      if (!current)
        throw originError("unavailable", lookup.source.name, "answered 304 to an unconditional read");
      return this.db.originObject.update({ where: { id: current.id }, data: { checkedAt: new Date() } });
    }

    const object = result.object;
    const storageKey = `origins/${lookup.source.id}/${randomUUID()}`;
    const hash = createHash("sha256");
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    object.body.once("error", (error) => hashing.destroy(error));
    let size: number;
    try {
      ({ size } = await this.storage.put(storageKey, object.body.pipe(hashing), {
        maxBytes: this.settings.maxBytes,
        signal,
      }));
    } catch (error) {
      object.body.destroy();
      if (error instanceof OriginError) throw error;
      if (error instanceof ObjectTooLargeError)
        throw originError("too_large", lookup.source.name, `more than ${this.settings.maxBytes} bytes`);
      if (signal.aborted) throw originError("timeout", lookup.source.name, "the body did not arrive in time");
      throw error;
    }
    const sniffed = await sniffContent(await readObjectHead(this.storage, storageKey, SNIFF_HEAD_BYTES));
    const data = {
      sourceVersion: lookup.source.version,
      storageKey,
      size: BigInt(size),
      mimeType: sniffed.mimeType,
      format: sniffed.format,
      hash: hash.digest("hex"),
      originEtag: object.etag ?? null,
      originLastModified: object.lastModified ?? null,
      checkedAt: new Date(),
    };
    return this.#store(lookup, data, storageKey);
  }

  /** Swaps in the new copy; the replaced object (if any) is deleted by the durable job. */
  async #store(
    lookup: OriginLookup,
    data: Omit<OriginObjectRow, "id" | "sourceId" | "host" | "path">,
    storageKey: string,
  ): Promise<OriginObjectRow> {
    const where = { sourceId: lookup.source.id, host: lookup.host, path: lookup.path };
    try {
      return await this.db.$transaction(async (tx) => {
        const locked = await tx.$queryRaw<Array<{ id: string; storage_key: string }>>`
          SELECT id, storage_key FROM origin_objects
          WHERE source_id = ${where.sourceId}::uuid AND host = ${where.host} AND path = ${where.path}
          FOR UPDATE`;
        const previous = locked[0];
        if (!previous) {
          if (where.host !== "") await this.#makeRoomForHost(tx, where.sourceId, where.host);
          return tx.originObject.create({ data: { ...where, ...data } });
        }
        // The old copy's variants were rendered from other bytes.
        await tx.fileVariant.deleteMany({ where: { originObjectId: previous.id } });
        await enqueueDeletion(tx, [previous.storage_key]);
        return tx.originObject.update({ where: { id: previous.id }, data });
      });
    } catch (error) {
      // Another request stored the first copy meanwhile: keep theirs, drop ours.
      if (!isUniqueViolation(error)) throw error;
      await enqueueDeletion(this.db, [storageKey]);
      return this.db.originObject.findUniqueOrThrow({ where: { sourceId_host_path: where } });
    }
  }

  /**
   * Before the first copy for `host`: when the source already keeps copies for
   * `maxHostsPerSource` other hosts, drops the copies of the least recently read ones.
   */
  async #makeRoomForHost(tx: Transaction, sourceId: string, host: string): Promise<void> {
    // FOR NO KEY UPDATE: serialises new hosts of this source without blocking inserts of copies
    // for known hosts (their foreign key check takes KEY SHARE, which this does not conflict with).
    await tx.$queryRaw`SELECT id FROM sources WHERE id = ${sourceId}::uuid FOR NO KEY UPDATE`;
    const hosts = await tx.$queryRaw<Array<{ host: string }>>`
      SELECT host FROM origin_objects
      WHERE source_id = ${sourceId}::uuid AND host <> ''
      GROUP BY host
      ORDER BY max(checked_at), host`;
    if (hosts.some((row) => row.host === host)) return;
    const excess = hosts.length - this.settings.maxHostsPerSource + 1;
    if (excess <= 0) return;
    const evicted = hosts.slice(0, excess).map((row) => row.host);
    const removed = await tx.$queryRaw<Array<{ storage_key: string }>>`
      DELETE FROM origin_objects
      WHERE source_id = ${sourceId}::uuid AND host IN (${Prisma.join(evicted)})
      RETURNING storage_key`;
    this.log.info(
      { sourceId, hosts: evicted.length, copies: removed.length },
      "origin copies of other hosts dropped",
    );
    if (removed.length > 0)
      await enqueueDeletion(
        tx,
        removed.map((row) => row.storage_key),
      );
  }

  async #forget(row: OriginObjectRow): Promise<void> {
    await this.db.$transaction(async (tx) => {
      const { count } = await tx.originObject.deleteMany({
        where: { id: row.id, storageKey: row.storageKey },
      });
      if (count > 0) await enqueueDeletion(tx, [row.storageKey]);
    });
  }
}

/** Enqueues deletion of every cached copy of a source (it was updated or is being deleted). */
export async function forgetSourceCopies(
  db: Parameters<typeof enqueueJob>[0] & Pick<PrismaClient, "originObject">,
  sourceId: string,
): Promise<void> {
  const rows = await db.originObject.findMany({ where: { sourceId }, select: { storageKey: true } });
  if (rows.length === 0) return;
  await db.originObject.deleteMany({ where: { sourceId } });
  await enqueueDeletion(
    db,
    rows.map((row) => row.storageKey),
  );
}

/** Removes stored copies (and their variants) through the durable object-deletion job. */
function enqueueDeletion(db: Parameters<typeof enqueueJob>[0], keys: string[]) {
  const payload: DeleteObjectsPayload = { keys };
  return enqueueJob(db, {
    kind: DELETE_OBJECTS_JOB_KIND,
    payload: { ...payload },
    maxAttempts: DELETE_JOB_MAX_ATTEMPTS,
  });
}
