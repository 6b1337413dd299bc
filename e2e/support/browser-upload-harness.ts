/**
 * Runs inside the test page, bundled with `@trove/sdk/upload` by esbuild (sdk-bundle.ts): makes a
 * `File` of random bytes, hashes it with crypto.subtle and uploads it with the browser SDK,
 * recording every progress report. The Node side asserts on what `upload()` returns.
 */
import { createUploadClient, TroveError, type UploadProgress, type UploadResult } from "@trove/sdk/upload";

export interface HarnessUploadOptions {
  baseUrl: string;
  apiKey: string;
  size: number;
  fileName: string;
  contentType?: string;
  /** Pause at the first report with bytes in flight, then resume after this many ms. */
  pauseForMs?: number;
  /** The client's `smallUploads` (default: the SDK's, a one-part session). */
  smallUploads?: "session" | "direct";
}

export interface TimedProgress extends UploadProgress {
  /** ms since the upload started (performance.now()). */
  at: number;
}

export interface HarnessReport {
  ok: true;
  result: UploadResult;
  progress: TimedProgress[];
  /** Hex SHA-256 of the bytes the page generated. */
  sha256: string;
  size: number;
  pause?: { pausedAt: number; resumedAt: number; pausedFlag: boolean };
}

export interface HarnessFailure {
  ok: false;
  name: string;
  code?: string;
  status?: number;
  requestId?: string;
  message: string;
}

function randomBytes(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  // getRandomValues fills at most 65 536 bytes per call.
  for (let offset = 0; offset < size; offset += 65_536) {
    crypto.getRandomValues(bytes.subarray(offset, Math.min(size, offset + 65_536)));
  }
  return bytes;
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function upload(options: HarnessUploadOptions): Promise<HarnessReport | HarnessFailure> {
  const bytes = randomBytes(options.size);
  const sha256 = await sha256Hex(bytes);
  const file = new File([bytes], options.fileName, {
    type: options.contentType ?? "application/octet-stream",
  });
  const client = createUploadClient({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    ...(options.smallUploads ? { smallUploads: options.smallUploads } : {}),
  });
  const started = performance.now();
  const progress: TimedProgress[] = [];
  let pause: HarnessReport["pause"];
  let pauseScheduled = false;

  const task = client.upload(file, {
    onProgress: (report) => {
      progress.push({ ...report, at: performance.now() - started });
      const { pauseForMs } = options;
      if (
        pauseForMs === undefined ||
        pauseScheduled ||
        report.loaded === 0 ||
        report.loaded >= report.total
      ) {
        return;
      }
      pauseScheduled = true;
      task.pause();
      const pausedAt = performance.now() - started;
      setTimeout(() => {
        pause = { pausedAt, resumedAt: performance.now() - started, pausedFlag: task.paused };
        task.resume();
      }, pauseForMs);
    },
  });

  try {
    const result = await task;
    return { ok: true, result, progress, sha256, size: options.size, ...(pause ? { pause } : {}) };
  } catch (error) {
    if (error instanceof TroveError) {
      const { name, code, status, requestId, message } = error;
      return { ok: false, name, code, status, requestId, message };
    }
    return { ok: false, name: "Error", message: String(error) };
  }
}

const harness = { upload };

declare global {
  interface Window {
    troveHarness: typeof harness;
  }
}

window.troveHarness = harness;
