import { once } from "node:events";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { FACE_WORKER_SOURCE } from "./face-worker-source.js";

describe("the face detector's worker", () => {
  it("answers every job with the reason when its model cannot load (the caller's 500 and log)", async () => {
    const require = createRequire(import.meta.url);
    const worker = new Worker(FACE_WORKER_SOURCE, {
      eval: true,
      workerData: {
        faceApiPath: require.resolve("@vladmandic/face-api/dist/face-api.node-wasm.js"),
        wasmBackendPath: require.resolve("@tensorflow/tfjs-backend-wasm"),
        modelDir: "/nonexistent/face-model",
        scoreThreshold: 0.5,
      },
    });
    try {
      for (const id of [1, 2]) {
        worker.postMessage({ id, data: new Uint8Array(32 * 32 * 3), width: 32, height: 32, inputSize: 416 });
        const [answer] = await once(worker, "message");
        expect(answer).toMatchObject({ id, loadError: expect.stringContaining("/nonexistent/face-model") });
        expect(answer.faces).toBeUndefined();
      }
    } finally {
      await worker.terminate();
    }
  });
});
