/**
 * The face detector's program, as source text run with `new Worker(source, { eval: true })` (a
 * string, not a module file, for the reason heif-worker-source.ts gives: it runs the same from
 * TypeScript sources and from the bundled build). It loads face-api's Tiny Face Detector on
 * TensorFlow.js's WebAssembly backend once, from the files inside the installed packages (paths in
 * workerData; nothing is fetched), then answers each message (tagged with its `id`): the faces in an RGB image,
 * as boxes in that image's pixels. A failure to load is answered to every request with its reason
 * (`loadError`), so the caller can log it and refuse. TensorFlow's console banners are silenced.
 */
export const FACE_WORKER_SOURCE = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const silent = () => {};
console.log = console.info = console.warn = console.error = console.debug = silent;

async function load() {
  const faceapi = require(workerData.faceApiPath);
  require(workerData.wasmBackendPath);
  await faceapi.tf.setBackend("wasm");
  await faceapi.tf.ready();
  await faceapi.nets.tinyFaceDetector.loadFromDisk(workerData.modelDir);
  return faceapi;
}
const loading = load();
// Reported once the first request asks; an unhandled rejection would end the worker silently.
loading.catch(() => {});

async function detect({ data, width, height, inputSize }) {
  const faceapi = await loading;
  const input = faceapi.tf.tensor3d(data, [height, width, 3], "int32");
  try {
    const options = new faceapi.TinyFaceDetectorOptions({
      inputSize,
      scoreThreshold: workerData.scoreThreshold,
    });
    const found = await faceapi.detectAllFaces(input, options);
    return {
      faces: found.map(({ box, score }) => ({
        left: box.x,
        top: box.y,
        width: box.width,
        height: box.height,
        score,
      })),
    };
  } finally {
    input.dispose();
  }
}

parentPort.on("message", async (job) => {
  let answer;
  try {
    answer = await detect(job);
  } catch (error) {
    const message = String((error && error.message) || error);
    answer = (await loading.then(() => false, () => true)) ? { loadError: message } : { error: message };
  }
  parentPort.postMessage({ id: job.id, ...answer });
});
`;
