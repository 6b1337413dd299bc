/**
 * The state of a list of uploads as a pure reducer: one state machine per file, no React, no SDK
 * calls, no clock (the time comes with each progress action). `useUpload` drives the tasks and
 * feeds their events in; every rule about which transition is allowed lives here.
 *
 *   idle ──start──▶ uploading ──done──▶ done
 *    │               │   ▲  └──fail──▶ error ──retry──▶ idle
 *    │            pause resume
 *    │               ▼   │
 *    │              paused
 *    └──abort (from idle, uploading or paused)──▶ aborted ──retry──▶ idle
 *
 * An action that does not apply to the file's current state returns the state unchanged (the
 * same object), so late events from a task that was aborted or retried are dropped safely.
 */
import type { TroveError, UploadResult } from "@trove/sdk/upload";
import { addSample, bytesPerSecond, type RateSample, secondsLeft } from "./transfer-rate.js";

export type UploadStatus = "idle" | "uploading" | "paused" | "done" | "error" | "aborted";

export interface UploadItem {
  /** Stable for the item's life, unique within its `useUpload()`. */
  readonly id: string;
  /**
   * What is uploaded. For a row added from a link (`link` set), an empty File named after the
   * link's last path segment: the server fetches the bytes, the browser never holds them.
   */
  readonly file: File;
  /** The http(s) URL of a row added "from a link" (remote-URL upload); undefined for a file. */
  readonly link: string | undefined;
  readonly status: UploadStatus;
  /** Waiting for a free slot: an idle item is started only when queued (`autoStart`, `start()`). */
  readonly queued: boolean;
  /** Bytes sent; never decreases within an attempt. */
  readonly sent: number;
  /** Bytes storage has confirmed: what survives a pause, an abort or a reload. */
  readonly confirmed: number;
  readonly total: number;
  /** `sent` as a whole percentage of `total`. */
  readonly percent: number;
  /** Bytes per second over the last seconds; undefined while unknown or not uploading. */
  readonly speed: number | undefined;
  /** Seconds left at that speed; undefined while unknown. */
  readonly secondsLeft: number | undefined;
  /** Whether `pause()` can hold it: false for a direct upload (one request, up to 8 MiB). */
  readonly pausable: boolean;
  readonly result: UploadResult | undefined;
  readonly error: TroveError | undefined;
  /** Starts made so far: 1 on the first, +1 per retry. */
  readonly attempts: number;
  /** Recent progress reports, for the speed. */
  readonly samples: readonly RateSample[];
}

export interface UploadState {
  readonly items: readonly UploadItem[];
}

export type UploadAction =
  | { type: "add"; files: ReadonlyArray<{ id: string; file: File; link?: string }>; queued: boolean }
  /** A waiting file swapped for another (an edited or resized image) before it is sent. */
  | { type: "replace"; id: string; file: File }
  | { type: "queue"; id: string }
  | { type: "start"; id: string; pausable: boolean }
  | { type: "progress"; id: string; sent: number; confirmed: number; total: number; at: number }
  | { type: "pause"; id: string }
  | { type: "resume"; id: string }
  | { type: "done"; id: string; result: UploadResult }
  | { type: "fail"; id: string; error: TroveError }
  | { type: "abort"; id: string }
  | { type: "retry"; id: string }
  | { type: "remove"; id: string };

export const initialUploadState: UploadState = { items: [] };

/** States a file can still move out of by itself: it holds (or waits for) an upload slot. */
export const ACTIVE_STATUSES: ReadonlySet<UploadStatus> = new Set(["idle", "uploading", "paused"]);

export function uploadReducer(state: UploadState, action: UploadAction): UploadState {
  if (action.type === "add") {
    const known = new Set(state.items.map((item) => item.id));
    const added = action.files
      .filter(({ id }) => !known.has(id))
      .map(({ id, file, link }) => freshItem(id, file, link, action.queued));
    return added.length === 0 ? state : { items: [...state.items, ...added] };
  }
  if (action.type === "remove") {
    const items = state.items.filter((item) => item.id !== action.id);
    return items.length === state.items.length ? state : { items };
  }
  return updateItem(state, action.id, (item) => transition(item, action));
}

function freshItem(id: string, file: File, link: string | undefined, queued: boolean): UploadItem {
  return {
    id,
    file,
    link,
    status: "idle",
    queued,
    sent: 0,
    confirmed: 0,
    total: file.size,
    percent: 0,
    speed: undefined,
    secondsLeft: undefined,
    pausable: false,
    result: undefined,
    error: undefined,
    attempts: 0,
    samples: [],
  };
}

const stalled = { speed: undefined, secondsLeft: undefined, samples: [] } as const;

function transition(item: UploadItem, action: Exclude<UploadAction, { type: "add" | "remove" }>): UploadItem {
  switch (action.type) {
    case "replace":
      return item.status === "idle" && !item.link
        ? { ...item, file: action.file, total: action.file.size }
        : item;
    case "queue":
      return item.status === "idle" && !item.queued ? { ...item, queued: true } : item;
    case "start":
      return item.status === "idle"
        ? {
            ...item,
            status: "uploading",
            queued: false,
            pausable: action.pausable,
            attempts: item.attempts + 1,
          }
        : item;
    case "progress":
      return item.status === "uploading" || item.status === "paused" ? withProgress(item, action) : item;
    case "pause":
      return item.status === "uploading" && item.pausable ? { ...item, status: "paused", ...stalled } : item;
    case "resume":
      return item.status === "paused" ? { ...item, status: "uploading" } : item;
    case "done":
      return item.status === "uploading" || item.status === "paused"
        ? {
            ...item,
            status: "done",
            result: action.result,
            sent: item.total,
            confirmed: item.total,
            percent: 100,
            ...stalled,
          }
        : item;
    case "fail":
      if (item.status !== "uploading" && item.status !== "paused") return item;
      // The task's own abort (the caller's signal, an unmount) is not an error to show.
      return action.error.code === "ABORTED"
        ? { ...item, status: "aborted", ...stalled }
        : { ...item, status: "error", error: action.error, ...stalled };
    case "abort":
      return ACTIVE_STATUSES.has(item.status)
        ? { ...item, status: "aborted", queued: false, ...stalled }
        : item;
    case "retry":
      return item.status === "error" || item.status === "aborted"
        ? {
            ...item,
            status: "idle",
            queued: true,
            error: undefined,
            sent: 0,
            confirmed: 0,
            percent: 0,
            pausable: false,
            ...stalled,
          }
        : item;
  }
}

function withProgress(
  item: UploadItem,
  { sent, confirmed, total, at }: { sent: number; confirmed: number; total: number; at: number },
): UploadItem {
  const samples = item.status === "uploading" ? addSample(item.samples, { at, sent }) : item.samples;
  const speed = item.status === "uploading" ? bytesPerSecond(samples) : undefined;
  return {
    ...item,
    sent: Math.max(item.sent, sent),
    confirmed: Math.max(item.confirmed, confirmed),
    total,
    percent: total === 0 ? 100 : Math.floor((Math.max(item.sent, sent) / total) * 100),
    samples,
    speed,
    secondsLeft: secondsLeft(total - sent, speed),
  };
}

function updateItem(state: UploadState, id: string, update: (item: UploadItem) => UploadItem): UploadState {
  const index = state.items.findIndex((item) => item.id === id);
  const item = state.items[index];
  if (!item) return state;
  const next = update(item);
  if (next === item) return state;
  const items = state.items.slice();
  items[index] = next;
  return { items };
}

/** Items that should get an upload slot now, in order, given how many may run at once. */
export function itemsToStart(state: UploadState, concurrency: number): UploadItem[] {
  const running = state.items.filter((item) => item.status === "uploading").length;
  const free = Math.max(0, concurrency - running);
  return state.items.filter((item) => item.status === "idle" && item.queued).slice(0, free);
}
