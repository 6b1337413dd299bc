/**
 * Workspace quotas (`max_files`, `max_storage_bytes`, set by the admin API): an upload that would
 * take the workspace's usage past one is refused with 403 QUOTA_EXCEEDED.
 *
 *   await checkQuota(db, workspaceId, declaredBytes)   // before any byte is stored: the declared size
 *   quotaErrorOf(error)                                // the trigger's refusal of a file insert, or null
 *
 * The pre-check is advice read outside any lock; what holds is the trigger on `files` (migration
 * 20261129023000_usage_quotas), which adds the file to `workspace_usage` under its row lock and
 * fails the insert when the new totals pass a quota. So two instances uploading at once cannot
 * overshoot: the second insert sees the first's totals, and its statement (nothing inserted,
 * nothing counted) fails. registerFile then removes the bytes it stored.
 */

import type { RawQuery } from "../db/direct-sql.js";
import { HttpError } from "../errors/http-error.js";
import { formatStorageBytes } from "./format-storage-bytes.js";

/** What a workspace stores, and its quotas (null: unlimited). */
export interface QuotaState {
  files: number;
  storageBytes: number;
  maxFiles: number | null;
  maxStorageBytes: number | null;
}

const n = (value: bigint | number | null) => (value === null ? null : Number(value));

export async function readQuotaState(db: RawQuery, workspaceId: string): Promise<QuotaState> {
  const [row] = await db.$queryRaw<
    Array<{ files: bigint | null; bytes: bigint | null; maxFiles: bigint | null; maxBytes: bigint | null }>
  >`
    SELECT u.files, u.storage_bytes AS bytes, w.max_files AS "maxFiles", w.max_storage_bytes AS "maxBytes"
      FROM workspaces w LEFT JOIN workspace_usage u ON u.workspace_id = w.id
     WHERE w.id = ${workspaceId}::uuid`;
  return {
    files: n(row?.files ?? null) ?? 0,
    storageBytes: n(row?.bytes ?? null) ?? 0,
    maxFiles: n(row?.maxFiles ?? null),
    maxStorageBytes: n(row?.maxBytes ?? null),
  };
}

/** The refusal of one more file of `bytes`, or null when it fits. */
export function quotaRefusal(state: QuotaState, bytes: number): HttpError | null {
  if (state.maxFiles !== null && state.files + 1 > state.maxFiles) {
    return quotaExceeded(`This workspace stores ${state.files} files of its ${state.maxFiles} file quota`);
  }
  if (state.maxStorageBytes !== null && state.storageBytes + bytes > state.maxStorageBytes) {
    return quotaExceeded(
      `This workspace stores ${formatStorageBytes(state.storageBytes)} of its ` +
        `${formatStorageBytes(state.maxStorageBytes)} quota; the upload is ${formatStorageBytes(bytes)}`,
    );
  }
  return null;
}

/** Refuses, before any byte is stored, an upload of `bytes` (its declared size) past a quota. */
export async function checkQuota(db: RawQuery, workspaceId: string, bytes: number): Promise<void> {
  const refusal = quotaRefusal(await readQuotaState(db, workspaceId), bytes);
  if (refusal) throw refusal;
}

function quotaExceeded(message: string): HttpError {
  return new HttpError(403, message, { errorCode: "QUOTA_EXCEEDED" });
}

/** The trigger's message: `trove_quota_exceeded files bytes size max_files max_bytes` (usage before the file). */
const TRIGGER_MESSAGE = /trove_quota_exceeded (\d+) (-?\d+) (\d+) (\d*) (\d*)/;

/**
 * The 403 for a file insert the quota trigger refused, or null for any other error. Read from the
 * error's message (Prisma, pg and PGlite all carry the database's), since the transaction it
 * failed is aborted and cannot be asked.
 */
export function quotaErrorOf(error: unknown): HttpError | null {
  let cause = error;
  for (let depth = 0; cause && depth < 5; depth++) {
    const match = TRIGGER_MESSAGE.exec(String((cause as { message?: unknown }).message ?? ""));
    if (match) {
      const [files, bytes, size, maxFiles, maxBytes] = match
        .slice(1)
        .map((v) => (v === "" ? null : Number(v)));
      const state = {
        files: files ?? 0,
        storageBytes: bytes ?? 0,
        maxFiles: maxFiles ?? null,
        maxStorageBytes: maxBytes ?? null,
      };
      return quotaRefusal(state, size ?? 0) ?? quotaExceeded("This upload would pass the workspace's quota");
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return null;
}
