/**
 * Bench 3's client: uploads one file path with the SDK in a process of its own and prints its
 * peak resident set as JSON (./memory-peak.ts), so nothing else the bench does counts against it.
 *
 *   node --conditions=dev-source --import tsx sdk-upload.ts <baseUrl> <apiKey> <path> [concurrency] [multipart|direct]
 */
import { createClient } from "@trove/sdk/node";
import { samplePeaks, vmHwm } from "./memory-peak.js";

const [baseUrl, apiKey, path, concurrency = "4", mode = "multipart"] = process.argv.slice(2);
if (!baseUrl || !apiKey || !path)
  throw new Error("usage: sdk-upload.ts <baseUrl> <apiKey> <path> [concurrency] [multipart|direct]");

const client = createClient({ apiKey, baseUrl, maxRetries: 0 });
const rssBefore = process.memoryUsage().rss;
const sampler = samplePeaks();
const started = performance.now();
const file = await client.upload(path, {
  fileName: "memory.bin",
  concurrency: Number(concurrency),
  // "direct": one multipart/form-data POST whatever the size.
  ...(mode === "direct" ? { multipartThreshold: 2 ** 40 } : {}),
});
const ms = performance.now() - started;
const peak = sampler.stop();
const maxRss = vmHwm();
await client.files.delete(file.file_no);
console.log(JSON.stringify({ rssBefore, maxRss, ms, size: file.size, peak }));
