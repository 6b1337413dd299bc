/**
 * A TroveUploadClient whose uploads the test drives by hand: report progress, succeed, fail. It
 * keeps the SDK task's contract (pause only when pausable and running, abort rejects with
 * AbortError, a settled task ignores controls), so the hook is tested against what it relies on.
 */
import {
  AbortError,
  type RemoteUploadOptions,
  type StoredSessionSummary,
  type TroveUploadClient,
  type UploadOptions,
  type UploadResult,
  type UploadTask,
} from "@trove/sdk/upload";

export interface FakeTask extends UploadTask {
  readonly file: File;
  readonly options: UploadOptions | undefined;
  readonly aborted: boolean;
  progress(loaded: number, confirmed?: number): void;
  succeed(result?: Partial<UploadResult>): void;
  fail(error: unknown): void;
}

/** A remote-URL upload the test settles by hand. */
export interface FakeLinkUpload {
  readonly url: string;
  readonly options: RemoteUploadOptions | undefined;
  succeed(result?: Partial<UploadResult>): void;
  fail(error: unknown): void;
}

export interface FakeUploadClient extends TroveUploadClient {
  readonly tasks: FakeTask[];
  readonly links: FakeLinkUpload[];
  sessions: StoredSessionSummary[];
}

/** Files larger than this go "in parts" and can pause, as with the SDK's 8 MiB default. */
export const FAKE_MULTIPART_THRESHOLD = 1000;

export function fakeUploadClient(): FakeUploadClient {
  const tasks: FakeTask[] = [];
  const links: FakeLinkUpload[] = [];
  const client: FakeUploadClient = {
    tasks,
    links,
    sessions: [],
    upload(input, options) {
      const task = fakeTask(input as File, options);
      tasks.push(task);
      return task;
    },
    uploadFromUrl(url, options) {
      return new Promise<UploadResult>((resolve, reject) => {
        options?.signal?.addEventListener("abort", () =>
          reject(new AbortError("Upload aborted", { code: "ABORTED" })),
        );
        links.push({
          url,
          options,
          succeed: (result = {}) => resolve(resultFor(options?.fileName ?? "remote", 0, result)),
          fail: reject,
        });
      });
    },
    listStoredSessions: async () => client.sessions,
  };
  return client;
}

function fakeTask(file: File, options: UploadOptions | undefined): FakeTask {
  let resolve!: (result: UploadResult) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<UploadResult>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined); // a test may never look at it
  const pausable = file.size > FAKE_MULTIPART_THRESHOLD;
  let paused = false;
  let settled = false;
  let aborted = false;
  const settle = () => {
    const was = settled;
    settled = true;
    return !was;
  };
  return {
    file,
    options,
    promise,
    get aborted() {
      return aborted;
    },
    get paused() {
      return paused;
    },
    pausable,
    pause() {
      if (!pausable || settled) return false;
      paused = true;
      return true;
    },
    resume() {
      paused = false;
    },
    abort() {
      if (!settle()) return;
      aborted = true;
      reject(new AbortError("Upload aborted", { code: "ABORTED" }));
    },
    progress(loaded, confirmed = 0) {
      options?.onProgress?.({
        loaded,
        confirmed,
        total: file.size,
        percent: Math.floor((loaded / file.size) * 100),
      });
    },
    succeed(result = {}) {
      if (!settle()) return;
      resolve(resultFor(file.name, file.size, result));
    },
    fail(error) {
      if (settle()) reject(error);
    },
    // biome-ignore lint/suspicious/noThenProperty: the task is awaitable, as the SDK's.
    then: (onFulfilled, onRejected) => promise.then(onFulfilled, onRejected),
    catch: (onRejected) => promise.catch(onRejected),
    finally: (onFinally) => promise.finally(onFinally),
  };
}

function resultFor(name: string, size: number, result: Partial<UploadResult>): UploadResult {
  return {
    file_no: "1001",
    name,
    url: `http://127.0.0.1:1/assets/ws1/${name}`,
    path: name,
    format: "bin",
    size,
    response: {} as UploadResult["response"],
    ...result,
  };
}
