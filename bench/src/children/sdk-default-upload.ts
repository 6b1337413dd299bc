/**
 * Row 1b's Trove client, in a process of its own like its baseline's (./bare-whole-put.ts):
 * `createClient(...).upload(path)` with every setting at its default, timed from the call to
 * the answer. Prints `{ ms, size, fileNo, cpuSeconds, partSize, completeMs }` (this process's
 * CPU during the upload; the part size the server chose; the time of `multipart/complete`).
 * In the bench process the same upload read 80 to 170 MB/s where from here it read about
 * 175 to 190 MB/s at the same load: that process's heap and event loop carry every earlier
 * bench's leftovers.
 *
 *   node --conditions=dev-source --import tsx sdk-default-upload.ts <baseUrl> <apiKey> <assetsUrl> <path>
 */
import { troveClient } from "../support/trove-client.js";

const [baseUrl, apiKey, assetsUrl, path] = process.argv.slice(2);
if (!baseUrl || !apiKey || !assetsUrl || !path)
  throw new Error("usage: sdk-default-upload.ts <baseUrl> <apiKey> <assetsUrl> <path>");

const { client, partSize, completeMs } = troveClient({
  baseUrl,
  assetsUrl,
  keys: { private: apiKey, public: "" },
});
const cpu = process.cpuUsage();
const started = performance.now();
const file = await client.upload(path, { fileName: "whole.bin" });
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    ms,
    size: file.size,
    fileNo: file.file_no,
    cpuSeconds: (used.user + used.system) / 1e6,
    partSize: partSize() ?? null,
    completeMs: completeMs() ?? null,
  }),
);
