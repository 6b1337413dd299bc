import type { StoredSessionSummary, UploadOptions, UploadResult, UploadTask } from "@trove/sdk/upload";
import { useCallback, useEffect, useId, useMemo, useReducer, useRef, useState } from "react";
import { asTroveError } from "./as-trove-error.js";
import { linkTask, nameOfLink } from "./link-task.js";
import { useTroveContext } from "./trove-context.js";
import {
  initialUploadState,
  itemsToStart,
  type UploadAction,
  type UploadItem,
  uploadReducer,
} from "./upload-state.js";

/** Per-file upload options: where and how it is stored. Progress and abort are the hook's. */
export type FileUploadOptions = Omit<UploadOptions, "onProgress" | "signal">;

export interface UseUploadOptions {
  /** Files uploading at once (each multipart upload also sends its parts in parallel). Default 3. */
  concurrency?: number;
  /** Start files as soon as they are added. Default true; otherwise call `start()`. */
  autoStart?: boolean;
  /** Options of every upload (`folder`, `tags`, …), or a function of the file. */
  options?: FileUploadOptions | ((file: File) => FileUploadOptions);
  onComplete?: (result: UploadResult, item: UploadItem) => void;
  onError?: (error: NonNullable<UploadItem["error"]>, item: UploadItem) => void;
}

export interface UseUploadResult {
  items: readonly UploadItem[];
  /** Adds files (from an input, a drop, a paste); returns their ids. */
  add(files: Iterable<File> | ArrayLike<File>): string[];
  /**
   * Adds a row the server fetches from an http(s) URL (remote-URL upload); returns its id. It
   * reports no byte progress and cannot pause; `options` apply as to files (but for `fileName`,
   * the link's last path segment unless the options name one). Throws a TypeError for a string
   * that is not an absolute URL.
   */
  addLink(url: string | URL): string;
  /** Swaps a waiting file for another (an edited image) before it is sent. */
  replace(id: string, file: File): void;
  /** Queues idle files for upload: one, or every idle file. */
  start(id?: string): void;
  /** Holds a multipart upload; a direct upload (`pausable` false) cannot be held. */
  pause(id: string): void;
  resume(id: string): void;
  /** Cancels a file waiting or uploading. A multipart session stays stored: retrying resumes it. */
  abort(id: string): void;
  /** Uploads a failed or cancelled file again; a stored multipart session is continued. */
  retry(id: string): void;
  /** Removes a file from the list, cancelling it first if it is still going. */
  remove(id: string): void;
  /**
   * Uploads a reload (or a crash) interrupted, from the provider's session store: adding the
   * same file again continues it. The browser cannot reopen a file by itself.
   */
  resumable: readonly StoredSessionSummary[];
  /** Forgets an interrupted upload: its stored session is deleted. */
  forget(key: string): Promise<void>;
}

const DEFAULT_CONCURRENCY = 3;

/**
 * Uploads files through the nearest TroveProvider's client, one state machine per file (see
 * upload-state.ts). Uploads are started from effects, never during render, so server rendering
 * and StrictMode's double render are harmless; StrictMode's mount-unmount-mount of effects finds
 * no upload running. When the component unmounts every upload is aborted (a multipart session
 * stays stored, so the file resumes when added again) and no state is set afterwards.
 */
export function useUpload(hookOptions: UseUploadOptions = {}): UseUploadResult {
  const trove = useTroveContext();
  const [state, dispatch] = useReducer(uploadReducer, initialUploadState);
  const [resumable, setResumable] = useState<readonly StoredSessionSummary[]>([]);
  const idPrefix = useId();
  const nextId = useRef(0);
  const tasks = useRef(new Map<string, UploadTask>());
  const mounted = useRef(false);
  // Latest options and callbacks without restarting anything when they change identity.
  const latest = useRef(hookOptions);
  latest.current = hookOptions;
  const items = useRef(state.items);
  items.current = state.items;

  const send = useCallback((action: UploadAction) => {
    if (mounted.current) dispatch(action);
  }, []);

  const refreshResumable = useCallback(() => {
    if (!trove?.sessionStore) return;
    let client: ReturnType<typeof trove.getClient>;
    try {
      client = trove.getClient();
    } catch {
      return; // not configured for uploads: nothing to resume either
    }
    client.listStoredSessions().then(
      (sessions) => {
        if (mounted.current) setResumable(sessions);
      },
      () => undefined,
    );
  }, [trove]);

  useEffect(() => {
    mounted.current = true;
    const running = tasks.current;
    return () => {
      mounted.current = false;
      for (const task of running.values()) task.abort();
      running.clear();
    };
  }, []);

  useEffect(refreshResumable, [refreshResumable]);

  // The scheduler: after every change, start what the concurrency allows.
  const concurrency = Math.max(1, hookOptions.concurrency ?? DEFAULT_CONCURRENCY);
  useEffect(() => {
    for (const item of itemsToStart(state, concurrency)) {
      if (tasks.current.has(item.id)) continue;
      startTask(item);
    }
  });

  function startTask(item: UploadItem) {
    const { id, file, link } = item;
    if (!trove) {
      send({ type: "start", id, pausable: false });
      send({
        type: "fail",
        id,
        error: asTroveError(new Error("useUpload() needs a <TroveProvider> above it")),
      });
      return;
    }
    const extra = latest.current.options;
    let task: UploadTask;
    try {
      const fileOptions = typeof extra === "function" ? extra(file) : extra;
      task = link
        ? linkTask(trove.getClient(), link, { fileName: file.name, ...fileOptions })
        : trove.getClient().upload(file, {
            ...fileOptions,
            onProgress: ({ loaded, confirmed, total }) => {
              if (tasks.current.get(id) === task)
                send({ type: "progress", id, sent: loaded, confirmed, total, at: Date.now() });
            },
          });
    } catch (error) {
      send({ type: "start", id, pausable: false });
      send({ type: "fail", id, error: asTroveError(error) });
      return;
    }
    tasks.current.set(id, task);
    send({ type: "start", id, pausable: task.pausable });
    task.then(
      (result) => {
        if (tasks.current.get(id) !== task) return;
        tasks.current.delete(id);
        send({ type: "done", id, result });
        if (mounted.current) {
          latest.current.onComplete?.(result, { ...item, status: "done", result });
          refreshResumable();
        }
      },
      (reason: unknown) => {
        if (tasks.current.get(id) !== task) return;
        tasks.current.delete(id);
        const error = asTroveError(reason);
        send({ type: "fail", id, error });
        if (mounted.current && error.code !== "ABORTED") {
          latest.current.onError?.(error, { ...item, status: "error", error });
        }
      },
    );
  }

  const add = useCallback(
    (files: Iterable<File> | ArrayLike<File>) => {
      const added = Array.from(files, (file) => ({ id: `${idPrefix}${nextId.current++}`, file }));
      send({ type: "add", files: added, queued: latest.current.autoStart ?? true });
      return added.map(({ id }) => id);
    },
    [idPrefix, send],
  );

  const addLink = useCallback(
    (url: string | URL) => {
      const parsed = new URL(url);
      const id = `${idPrefix}${nextId.current++}`;
      const file = new File([], nameOfLink(parsed));
      send({
        type: "add",
        files: [{ id, file, link: parsed.href }],
        queued: latest.current.autoStart ?? true,
      });
      return id;
    },
    [idPrefix, send],
  );

  const controls = useMemo(() => {
    const stop = (id: string) => {
      const task = tasks.current.get(id);
      tasks.current.delete(id);
      task?.abort();
    };
    return {
      start(id?: string) {
        const ids = id === undefined ? items.current.map((item) => item.id) : [id];
        for (const one of ids) send({ type: "queue", id: one });
      },
      pause(id: string) {
        if (tasks.current.get(id)?.pause()) send({ type: "pause", id });
      },
      resume(id: string) {
        const task = tasks.current.get(id);
        if (!task?.paused) return;
        task.resume();
        send({ type: "resume", id });
      },
      abort(id: string) {
        stop(id);
        send({ type: "abort", id });
      },
      retry(id: string) {
        stop(id);
        send({ type: "retry", id });
      },
      remove(id: string) {
        stop(id);
        send({ type: "remove", id });
      },
      replace(id: string, file: File) {
        send({ type: "replace", id, file });
      },
    };
  }, [send]);

  const forget = useCallback(
    async (key: string) => {
      await trove?.sessionStore?.delete(key);
      refreshResumable();
    },
    [trove, refreshResumable],
  );

  return { items: state.items, add, addLink, ...controls, resumable, forget };
}
