/**
 * `GET /api/v1/usage`'s answer: the workspace's stored totals and quotas (./quota.ts reads the
 * same row the quota trigger keeps) and its delivery days, the last `days` UTC days oldest first,
 * a day without deliveries included as zeros. Days reach `usage_days` when the delivery host
 * flushes its counters (./delivery-usage.ts), so today's counts may be up to a flush behind.
 */
import type { Usage, UsageDay } from "@trove/schema";
import type { RawQuery } from "../db/direct-sql.js";
import { readQuotaState } from "./quota.js";

const DAY_MS = 86_400_000;

export async function readUsage(
  db: RawQuery,
  workspaceId: string,
  days: number,
  now = new Date(),
): Promise<Usage> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const dates = Array.from({ length: days }, (_, i) =>
    new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
  const [state, rows] = await Promise.all([
    readQuotaState(db, workspaceId),
    db.$queryRaw<Array<{ date: string; requests: bigint; bytes: bigint; renders: bigint }>>`
      SELECT to_char(day, 'YYYY-MM-DD') AS date, requests, bytes_served AS bytes, renders
        FROM usage_days
       WHERE workspace_id = ${workspaceId}::uuid AND day >= ${dates[0]}::date AND day <= ${dates.at(-1)}::date`,
  ]);
  const byDate = new Map(rows.map((row) => [row.date, row]));
  return {
    files: state.files,
    storage_bytes: state.storageBytes,
    max_files: state.maxFiles,
    max_storage_bytes: state.maxStorageBytes,
    days: dates.map((date): UsageDay => {
      const row = byDate.get(date);
      return {
        date,
        requests: Number(row?.requests ?? 0),
        bytes_served: Number(row?.bytes ?? 0),
        renders: Number(row?.renders ?? 0),
      };
    }),
  };
}
