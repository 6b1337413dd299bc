/**
 * The decoding worker's program, as source text run with `new Worker(source, { eval: true })`:
 * a string, not a module file, so it runs the same from TypeScript sources (tsx, vitest) and
 * from the bundled build, where no separate worker file exists. It loads libheif-js's
 * WebAssembly build (paths and the .wasm bytes come in workerData) and answers one message at a
 * time: decode the primary image of `bytes` to RGB or RGBA, or say why not. libheif applies the
 * container's clean aperture, rotation and mirroring itself. Its diagnostics go nowhere: they
 * describe a client's file and must not reach the server's logs as if they were ours.
 */
export const HEIF_WORKER_SOURCE = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const silent = () => {};
console.log = console.info = console.warn = console.error = console.debug = silent;
const libheif = require(workerData.libheifPath)({ wasmBinary: workerData.wasmBinary, print: silent, printErr: silent });

async function decode({ bytes, maxPixels, alpha }) {
  const decoder = new libheif.HeifDecoder();
  const images = decoder.decode(bytes);
  try {
    const primary = images.find((image) => image.is_primary()) || images[0];
    if (!primary) return { error: "no image in the file" };
    const width = primary.get_width();
    const height = primary.get_height();
    if (!(width > 0 && height > 0) || width * height > maxPixels) {
      return { error: "the decoded size " + width + "x" + height + " is not the declared one" };
    }
    const result = await new Promise((resolve) => {
      primary.display({ data: new Uint8ClampedArray(width * height * 4), width, height }, resolve);
    });
    if (!result) return { error: "libheif could not decode the image" };
    if (alpha) return { width, height, channels: 4, data: new Uint8Array(result.data.buffer) };
    const rgba = result.data;
    const rgb = new Uint8Array(width * height * 3);
    for (let from = 0, to = 0; from < rgba.length; from += 4, to += 3) {
      rgb[to] = rgba[from];
      rgb[to + 1] = rgba[from + 1];
      rgb[to + 2] = rgba[from + 2];
    }
    return { width, height, channels: 3, data: rgb };
  } finally {
    for (const image of images) image.free();
  }
}

parentPort.on("message", async (job) => {
  let answer;
  try {
    answer = await decode(job);
  } catch (error) {
    answer = { error: String((error && error.message) || error) };
  }
  if (answer.data) parentPort.postMessage(answer, [answer.data.buffer]);
  else parentPort.postMessage(answer);
});
`;
