import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import { MediaError } from "../media-error.js";
import { type Box, overlap } from "./box.js";
import { FACE_WORKER_SOURCE } from "./face-worker-source.js";

/** An 8-bit RGB image, small enough for the detector (see find-faces.ts for the size). */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface DetectedFace extends Box {
  /** The detector's confidence, 0..1 (only faces above SCORE_THRESHOLD are returned). */
  score: number;
}

/**
 * The Tiny Face Detector's input side (a multiple of 32); it scales (and pads) any image to fit a
 * square of it. 640, the side of the copy find-faces.ts makes, so that copy is looked at one to
 * one: at face-api's default 416 a 1600×512 group photo's faces (46 px in the copy) shrink to
 * 30 px and are missed. About 250 ms of one core per image on this project's 2-core machines.
 */
export const DETECTOR_INPUT_SIDE = 640;

/**
 * The input side for an image: its longer side rounded up to a multiple of 32, so that a 640 px
 * copy is looked at one to one, but at least face-api's default 416: below that the model sees
 * faces in clothes and flags (a 180 px portrait gave a second "face" at 0.79).
 */
const MIN_INPUT_SIDE = 416;
const inputSideFor = ({ width, height }: RgbImage) =>
  Math.min(DETECTOR_INPUT_SIDE, Math.max(MIN_INPUT_SIDE, Math.ceil(Math.max(width, height) / 32) * 32));

const SCORE_THRESHOLD = 0.5;
/**
 * Boxes overlapping more than this are one face. face-api's own suppression lets through a
 * second box on the same face at some scales (seen at a 640 px input: IoU 0.7).
 */
const SAME_FACE_OVERLAP = 0.3;
/**
 * The worker's JavaScript heap. The model (190 KB of weights) and TensorFlow's tensors live in
 * the WebAssembly heap, which a 640 px input keeps at a few tens of MB.
 */
const WORKER_RESOURCE_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

interface Answer {
  id: number;
  faces?: DetectedFace[];
  error?: string;
  loadError?: string;
}

interface Job {
  id: number;
  image: RgbImage;
  timeoutMs: number;
  resolve(faces: DetectedFace[]): void;
  reject(error: unknown): void;
}

/**
 * One worker holds the model, loaded once on the first request and kept (a worker per request
 * would load it per request). Jobs go to it one at a time, each under its own time limit: a job
 * that overruns terminates the worker (WebAssembly cannot be interrupted on its own thread), is
 * refused, and the next job starts a fresh worker. How many jobs can wait is bounded by the
 * callers: every detection runs inside a render, and renders pass the app's RenderGate.
 */
let worker: Worker | undefined;
const queue: Job[] = [];
let running: { job: Job; timer: NodeJS.Timeout } | undefined;
let nextId = 1;

function spawn(): Worker {
  const require = createRequire(import.meta.url);
  const faceApiPath = require.resolve("@vladmandic/face-api/dist/face-api.node-wasm.js");
  const spawned = new Worker(FACE_WORKER_SOURCE, {
    eval: true,
    workerData: {
      faceApiPath,
      wasmBackendPath: require.resolve("@tensorflow/tfjs-backend-wasm"),
      modelDir: join(dirname(dirname(faceApiPath)), "model"),
      scoreThreshold: SCORE_THRESHOLD,
    },
    resourceLimits: WORKER_RESOURCE_LIMITS,
    stdout: true,
    stderr: true,
  });
  spawned.stdout.resume();
  spawned.stderr.resume();
  spawned.on("message", (answer: Answer) => settle(spawned, answer));
  spawned.on("error", (error) => fail(spawned, error));
  spawned.on("exit", (code) => fail(spawned, new Error(`the face detector exited (${code})`)));
  return spawned;
}

/** Ends the worker (if it is still the current one); the next job spawns a new one. */
function retire(which: Worker): void {
  if (worker !== which) return;
  worker = undefined;
  void which.terminate();
}

function finish(which: Worker, outcome: (job: Job) => void): void {
  if (worker !== which || running === undefined) return;
  const { job, timer } = running;
  clearTimeout(timer);
  running = undefined;
  outcome(job);
  pump();
}

function settle(which: Worker, answer: Answer): void {
  finish(which, (job) => {
    if (answer.id !== job.id) {
      retire(which);
      job.reject(new Error(`the face detector answered job ${answer.id} for job ${job.id}`));
    } else if (answer.faces !== undefined) {
      job.resolve(answer.faces);
    } else {
      // A model that cannot load is the server's fault: a 500 whose log says why. The worker is
      // ended so that the next request tries again.
      retire(which);
      job.reject(
        new Error(
          `the face detector ${answer.loadError ? "could not load" : "failed"}: ${answer.loadError ?? answer.error}`,
        ),
      );
    }
  });
}

function fail(which: Worker, error: Error & { code?: string }): void {
  finish(which, (job) => {
    retire(which);
    job.reject(
      error.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? new MediaError(
            "IMAGE_TOO_LARGE",
            "image needs more memory for face detection than a detector may use",
            {
              cause: error,
            },
          )
        : error,
    );
  });
  retire(which);
}

function pump(): void {
  if (running !== undefined) return;
  const job = queue.shift();
  if (job === undefined) {
    // An idle detector must not keep the process alive.
    worker?.unref();
    return;
  }
  worker ??= spawn();
  const current = worker;
  current.ref();
  const timer = setTimeout(() => {
    finish(current, (timedOut) => {
      retire(current);
      timedOut.reject(
        new MediaError(
          "IMAGE_TOO_LARGE",
          `image processing took longer than the ${Math.ceil(timedOut.timeoutMs / 1000)}-second limit`,
        ),
      );
    });
  }, job.timeoutMs);
  running = { job, timer };
  // A copy: the caller's buffer may be a view into a larger one.
  const { data, width, height } = job.image;
  current.postMessage({ id: job.id, data, width, height, inputSize: inputSideFor(job.image) });
}

/**
 * The faces in `image`, as boxes in its pixels, most confident first. Rejects with a MediaError
 * (IMAGE_TOO_LARGE) when detection takes longer than `timeoutMs` or runs out of memory, and with
 * a plain Error (a 500) when the model cannot load.
 */
export function detectFaces(image: RgbImage, timeoutMs: number): Promise<DetectedFace[]> {
  return new Promise<DetectedFace[]>((resolve, reject) => {
    queue.push({ id: nextId++, image, timeoutMs, resolve, reject });
    pump();
  }).then(oneBoxPerFace);
}

/** The most confident box of each face, most confident first. */
function oneBoxPerFace(faces: DetectedFace[]): DetectedFace[] {
  const kept: DetectedFace[] = [];
  for (const face of [...faces].sort((a, b) => b.score - a.score)) {
    if (kept.every((other) => overlap(face, other) <= SAME_FACE_OVERLAP)) kept.push(face);
  }
  return kept;
}
