import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { MediaError } from "../media-error.js";
import { HEIF_WORKER_SOURCE } from "./heif-worker-source.js";

/** Pixels of a HEIF image as libheif decoded them, displayed (rotation applied), 8 bits. */
export interface DecodedHeif {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

export interface DecodeHeifOptions {
  /** From the header: keep the alpha channel (RGBA) or drop it (RGB). */
  hasAlpha: boolean;
  /** The decoded image may not have more pixels than this (the header was checked already). */
  maxPixels: number;
  /** Beyond this the worker is terminated and the decode refused. */
  timeoutMs: number;
}

/**
 * Idle workers kept for the next decode (loading the WebAssembly costs tens of ms). A worker that
 * decoded more than RETIRE_AFTER_PIXELS is not kept: WebAssembly memory never shrinks, so an idle
 * worker would hold a large image's peak for nothing; an idle one exits after IDLE_MS.
 */
const MAX_IDLE_WORKERS = 2;
const RETIRE_AFTER_PIXELS = 4_000_000;
const IDLE_MS = 10_000;
/**
 * The worker's JavaScript heap (the decoded pixels are ArrayBuffers outside it, and libheif's own
 * memory is the WebAssembly heap, bound by the pixel limits checked before decoding).
 */
const WORKER_RESOURCE_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

interface Answer {
  error?: string;
  data?: Uint8Array;
  width?: number;
  height?: number;
  channels?: 3 | 4;
}

interface IdleWorker {
  worker: Worker;
  timer: NodeJS.Timeout;
}

const idle: IdleWorker[] = [];
let workerData: { libheifPath: string; wasmBinary: Uint8Array } | undefined;

function spawn(): Worker {
  if (workerData === undefined) {
    const require = createRequire(import.meta.url);
    const libheifPath = require.resolve("libheif-js/libheif-wasm/libheif.js");
    workerData = { libheifPath, wasmBinary: readFileSync(libheifPath.replace(/\.js$/, ".wasm")) };
  }
  const worker = new Worker(HEIF_WORKER_SOURCE, {
    eval: true,
    workerData,
    resourceLimits: WORKER_RESOURCE_LIMITS,
    stdout: true,
    stderr: true,
  });
  // Whatever libheif prints is about a client's file: drained, never shown.
  worker.stdout.resume();
  worker.stderr.resume();
  return worker;
}

function acquire(): Worker {
  const kept = idle.pop();
  if (kept === undefined) return spawn();
  clearTimeout(kept.timer);
  return kept.worker;
}

function release(worker: Worker, pixels: number): void {
  if (pixels > RETIRE_AFTER_PIXELS || idle.length >= MAX_IDLE_WORKERS) {
    void worker.terminate();
    return;
  }
  const entry: IdleWorker = {
    worker,
    timer: setTimeout(() => {
      idle.splice(idle.indexOf(entry), 1);
      void worker.terminate();
    }, IDLE_MS).unref(),
  };
  // An idle worker must not keep the process alive.
  worker.unref();
  idle.push(entry);
}

function undecodable(cause: unknown): MediaError {
  return new MediaError("UNSUPPORTED_MEDIA_TYPE", "image could not be decoded: it is corrupt or truncated", {
    cause,
  });
}

/**
 * Decodes a HEIC's primary image with libheif (WebAssembly) in a worker thread, so that the time
 * limit can stop it (a WebAssembly loop cannot be interrupted on the thread that runs it: the
 * worker is terminated instead) and a crash or an out-of-memory in it ends the worker, not the
 * server. Rejects with a MediaError: UNSUPPORTED_MEDIA_TYPE for a file libheif cannot decode,
 * IMAGE_TOO_LARGE for one that takes longer than `timeoutMs` or exhausts the worker's memory.
 * How many run at once is up to the callers: every decode runs inside a render, and renders pass
 * the app's RenderGate.
 */
export function decodeHeif(bytes: Uint8Array, options: DecodeHeifOptions): Promise<DecodedHeif> {
  const worker = acquire();
  worker.ref();
  return new Promise<DecodedHeif>((resolve, reject) => {
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      outcome();
    };
    const timer = setTimeout(() => {
      settle(() => {
        void worker.terminate();
        reject(
          new MediaError(
            "IMAGE_TOO_LARGE",
            `image processing took longer than the ${Math.ceil(options.timeoutMs / 1000)}-second limit`,
          ),
        );
      });
    }, options.timeoutMs);
    const onMessage = (answer: Answer) => {
      settle(() => {
        const { data, width, height, channels } = answer;
        if (answer.error !== undefined || data === undefined || !width || !height || !channels) {
          void worker.terminate();
          reject(undecodable(new Error(answer.error ?? "the decoder gave no pixels")));
          return;
        }
        release(worker, width * height);
        resolve({
          data: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
          width,
          height,
          channels,
        });
      });
    };
    const onError = (error: Error & { code?: string }) => {
      settle(() => {
        void worker.terminate();
        reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new MediaError("IMAGE_TOO_LARGE", "image needs more memory to decode than a decoder may use", {
                cause: error,
              })
            : undecodable(error),
        );
      });
    };
    const onExit = (code: number) =>
      settle(() => reject(undecodable(new Error(`the decoder exited (${code})`))));
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    // A copy: the caller keeps its bytes (they may be the stored original's buffer).
    worker.postMessage({ bytes, maxPixels: options.maxPixels, alpha: options.hasAlpha });
  });
}
