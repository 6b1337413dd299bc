import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { TroveError } from "../errors.js";
import { isRecord } from "../is-record.js";
import {
  isStoredUploadSession,
  type SessionStore,
  type StoredUploadSession,
} from "../upload/session-store.js";
import { checkStoreFolder, checkStorePlaceSync, readStoreFile } from "./store-permissions.js";

/**
 * A SessionStore in one JSON file, so a CLI or a worker resumes its uploads after a crash.
 * Writes are queued within the process and land atomically (temporary file + rename), so a
 * crash mid-write leaves the previous version; expired sessions are dropped on every write.
 *
 * Private to the user (store-permissions.ts): the folder is made 0700 and the file written 0600,
 * and a store or folder that another user owns or may write is refused with a TroveError
 * (`INVALID_ARGUMENT`), here when it already is so, and by every read and write after.
 */
export function fileSessionStore(path: string): SessionStore {
  checkStorePlaceSync(path);
  let queue: Promise<unknown> = Promise.resolve();

  // A missing, unreadable or corrupt file is an empty store; only a refusal is thrown.
  const readAll = async (): Promise<Record<string, unknown>> => {
    try {
      const parsed: unknown = JSON.parse((await readStoreFile(path)) ?? "{}");
      return isRecord(parsed) ? parsed : {};
    } catch (error) {
      if (error instanceof TroveError) throw error;
      return {};
    }
  };

  const update = (change: (all: Record<string, unknown>) => void): Promise<void> => {
    const run = queue.then(async () => {
      const all = await readAll();
      change(all);
      const now = Date.now() / 1000;
      for (const [key, value] of Object.entries(all)) {
        if (!isStoredUploadSession(value) || value.expires_at < now) delete all[key];
      }
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await checkStoreFolder(dirname(path));
      const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      // Created 0600 ("wx": a new file, never one planted under that name); rename keeps the mode.
      await writeFile(temporary, JSON.stringify(all), { mode: 0o600, flag: "wx" });
      await rename(temporary, path);
    });
    queue = run.catch(() => undefined);
    return run;
  };

  return {
    async get(key) {
      await queue;
      const value = (await readAll())[key];
      return isStoredUploadSession(value) ? value : undefined;
    },
    async list() {
      await queue;
      return Object.entries(await readAll()).filter((entry): entry is [string, StoredUploadSession] =>
        isStoredUploadSession(entry[1]),
      );
    },
    set: (key, session: StoredUploadSession) =>
      update((all) => {
        all[key] = session;
      }),
    delete: (key) =>
      update((all) => {
        delete all[key];
      }),
  };
}
