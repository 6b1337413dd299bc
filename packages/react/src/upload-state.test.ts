import { AbortError, RateLimitError, type UploadResult } from "@trove/sdk/upload";
import { describe, expect, it } from "vitest";
import {
  initialUploadState,
  itemsToStart,
  type UploadAction,
  type UploadState,
  uploadReducer,
} from "./upload-state.js";

const file = (name: string, size: number) => new File([new Uint8Array(size)], name);
const result = {
  file_no: "7",
  name: "a.bin",
  url: "u",
  path: "a.bin",
  format: "bin",
  size: 10,
} as UploadResult;
const refused = new RateLimitError("Too Many Requests", { code: "RATE_LIMITED", status: 429 });

function run(actions: UploadAction[], state: UploadState = initialUploadState): UploadState {
  return actions.reduce(uploadReducer, state);
}

const added = run([{ type: "add", files: [{ id: "a", file: file("a.bin", 10_000) }], queued: true }]);
const uploading = run([{ type: "start", id: "a", pausable: true }], added);
const item = (state: UploadState) => state.items[0]!;

describe("uploadReducer", () => {
  it("adds files as idle items with their size as total, and ignores an id it already has", () => {
    expect(item(added)).toMatchObject({ id: "a", status: "idle", queued: true, total: 10_000, sent: 0 });
    expect(
      uploadReducer(added, { type: "add", files: [{ id: "a", file: file("b", 1) }], queued: true }),
    ).toBe(added);
  });

  it("goes idle → uploading → done, counting the attempt and filling the progress at the end", () => {
    expect(item(uploading)).toMatchObject({
      status: "uploading",
      queued: false,
      attempts: 1,
      pausable: true,
    });
    const done = run([{ type: "done", id: "a", result }], uploading);
    expect(item(done)).toMatchObject({
      status: "done",
      result,
      percent: 100,
      sent: 10_000,
      confirmed: 10_000,
    });
  });

  it("keeps sent and confirmed bytes from moving backwards", () => {
    const state = run(
      [
        { type: "progress", id: "a", sent: 6_000, confirmed: 5_000, total: 10_000, at: 0 },
        { type: "progress", id: "a", sent: 4_000, confirmed: 2_000, total: 10_000, at: 100 },
      ],
      uploading,
    );
    expect(item(state)).toMatchObject({ sent: 6_000, confirmed: 5_000, percent: 60 });
  });

  it("works out speed and time left from the last seconds of progress", () => {
    const state = run(
      [
        { type: "progress", id: "a", sent: 1_000, confirmed: 0, total: 10_000, at: 0 },
        { type: "progress", id: "a", sent: 3_000, confirmed: 0, total: 10_000, at: 1_000 },
      ],
      uploading,
    );
    expect(item(state).speed).toBe(2_000);
    expect(item(state).secondsLeft).toBe(4); // 7 000 bytes at 2 000 B/s
  });

  it("pauses only a pausable upload, and forgets the speed while paused", () => {
    const direct = run([{ type: "start", id: "a", pausable: false }], added);
    expect(uploadReducer(direct, { type: "pause", id: "a" })).toBe(direct);
    const paused = run([{ type: "pause", id: "a" }], uploading);
    expect(item(paused)).toMatchObject({ status: "paused", speed: undefined, secondsLeft: undefined });
    expect(item(run([{ type: "resume", id: "a" }], paused)).status).toBe("uploading");
  });

  it("turns a failure into error with its TroveError, and the task's own abort into aborted", () => {
    expect(item(run([{ type: "fail", id: "a", error: refused }], uploading))).toMatchObject({
      status: "error",
      error: refused,
    });
    const abort = new AbortError("aborted", { code: "ABORTED" });
    expect(item(run([{ type: "fail", id: "a", error: abort }], uploading))).toMatchObject({
      status: "aborted",
      error: undefined,
    });
  });

  it("drops late events of a task that was aborted: no progress, done or failure after abort", () => {
    const aborted = run([{ type: "abort", id: "a" }], uploading);
    for (const late of [
      { type: "progress", id: "a", sent: 5, confirmed: 5, total: 10_000, at: 1 },
      { type: "done", id: "a", result },
      { type: "fail", id: "a", error: refused },
      { type: "pause", id: "a" },
    ] satisfies UploadAction[]) {
      expect(uploadReducer(aborted, late)).toBe(aborted);
    }
  });

  it("retries a failed or aborted file from idle, queued, with progress and error cleared", () => {
    const failed = run(
      [
        { type: "progress", id: "a", sent: 5_000, confirmed: 4_000, total: 10_000, at: 0 },
        { type: "fail", id: "a", error: refused },
        { type: "retry", id: "a" },
      ],
      uploading,
    );
    expect(item(failed)).toMatchObject({
      status: "idle",
      queued: true,
      error: undefined,
      sent: 0,
      confirmed: 0,
    });
    expect(item(run([{ type: "start", id: "a", pausable: true }], failed)).attempts).toBe(2);
    expect(uploadReducer(uploading, { type: "retry", id: "a" })).toBe(uploading);
  });

  it("never aborts or retries a finished upload", () => {
    const done = run([{ type: "done", id: "a", result }], uploading);
    expect(uploadReducer(done, { type: "abort", id: "a" })).toBe(done);
    expect(uploadReducer(done, { type: "retry", id: "a" })).toBe(done);
  });

  it("ignores actions for ids it does not have, and removes the ones it has", () => {
    expect(uploadReducer(added, { type: "start", id: "zz", pausable: true })).toBe(added);
    expect(uploadReducer(added, { type: "remove", id: "zz" })).toBe(added);
    expect(run([{ type: "remove", id: "a" }], added).items).toEqual([]);
  });
});

describe("uploadReducer: links and replaced files", () => {
  it("keeps a link's URL on its row, and swaps a waiting file (an edited image) for another, never one already sent", () => {
    const linked = run([
      {
        type: "add",
        files: [{ id: "l", file: file("cat.png", 0), link: "http://127.0.0.1:9/cat.png" }],
        queued: true,
      },
    ]);
    expect(item(linked)).toMatchObject({ link: "http://127.0.0.1:9/cat.png", status: "idle", total: 0 });
    expect(run([{ type: "replace", id: "l", file: file("other.png", 5) }], linked)).toBe(linked);

    const edited = file("a.bin", 4_000);
    const replaced = run([{ type: "replace", id: "a", file: edited }], added);
    expect(item(replaced)).toMatchObject({ file: edited, total: 4_000, link: undefined });
    expect(run([{ type: "replace", id: "a", file: edited }], uploading)).toBe(uploading);
  });
});

describe("itemsToStart", () => {
  const many = run([
    {
      type: "add",
      files: ["a", "b", "c", "d"].map((id) => ({ id, file: file(`${id}.bin`, 10) })),
      queued: true,
    },
    { type: "add", files: [{ id: "later", file: file("later.bin", 10) }], queued: false },
  ]);

  it("fills the free slots in order with queued idle files only", () => {
    expect(itemsToStart(many, 2).map((i) => i.id)).toEqual(["a", "b"]);
    const oneRunning = run([{ type: "start", id: "a", pausable: false }], many);
    expect(itemsToStart(oneRunning, 2).map((i) => i.id)).toEqual(["b"]);
    const full = run([{ type: "start", id: "b", pausable: false }], oneRunning);
    expect(itemsToStart(full, 2)).toEqual([]);
  });

  it("frees a slot when an upload pauses, and leaves unqueued files until start()", () => {
    const twoRunning = run(
      [
        { type: "start", id: "a", pausable: true },
        { type: "start", id: "b", pausable: true },
        { type: "pause", id: "a" },
      ],
      many,
    );
    expect(itemsToStart(twoRunning, 2).map((i) => i.id)).toEqual(["c"]);
    const rest = run(
      ["a", "b", "c", "d"].map((id) => ({ type: "remove", id }) as const),
      many,
    );
    expect(itemsToStart(rest, 5)).toEqual([]);
    expect(itemsToStart(run([{ type: "queue", id: "later" }], rest), 5).map((i) => i.id)).toEqual(["later"]);
  });
});
