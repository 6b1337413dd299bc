import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { isRecord } from "../is-record.js";
import {
  isStoredUploadSession,
  type SessionStore,
  type StoredUploadSession,
} from "../upload/session-store.js";

/**
 * A SessionStore in one JSON file, so a CLI or a worker resumes its uploads after a crash.
 * Writes are queued within the process and land atomically (temporary file + rename), so a
 * crash mid-write leaves the previous version; expired sessions are dropped on every write.
 */
export function fileSessionStore(path: string): SessionStore {
  let queue: Promise<unknown> = Promise.resolve();

  const readAll = async (): Promise<Record<string, unknown>> => {
    try {
      const parsed: unknown = JSON.parse(await readFile(path, "utf8"));
      return isRecord(parsed) ? parsed : {};
    } catch {
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
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      await writeFile(temporary, JSON.stringify(all));
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
