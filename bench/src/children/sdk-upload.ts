/**
 * Bench 3's client: uploads one file path with the SDK in a process of its own and prints its
 * peak resident set as JSON, so nothing else the bench does counts against it. The peak is VmHWM
 * from /proc/self/status: `process.resourceUsage().maxRSS` is no good here, because Linux carries
 * the parent's RSS at fork over into the child's maxRSS across exec.
 *
 *   node --conditions=dev-source --import tsx sdk-upload.ts <baseUrl> <apiKey> <path> <concurrency> [direct]
 */
import { readFileSync } from "node:fs";
import { createClient } from "@trove/sdk/node";

function vmHwm(): number {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
  return Number(match?.[1] ?? Number.NaN) * 1024;
}

const [baseUrl, apiKey, path, concurrency = "4", mode = "multipart"] = process.argv.slice(2);
if (!baseUrl || !apiKey || !path)
  throw new Error("usage: sdk-upload.ts <baseUrl> <apiKey> <path> [concurrency]");

const client = createClient({ apiKey, baseUrl, maxRetries: 0 });
const rssBefore = process.memoryUsage().rss;
// Where the memory is, sampled: V8 heap, and ArrayBuffers (part bodies, socket buffers).
const peak = { heapUsed: 0, arrayBuffers: 0 };
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  peak.heapUsed = Math.max(peak.heapUsed, usage.heapUsed);
  peak.arrayBuffers = Math.max(peak.arrayBuffers, usage.arrayBuffers);
}, 10);
const started = performance.now();
const file = await client.upload(path, {
  fileName: "memory.bin",
  concurrency: Number(concurrency),
  // "direct": one multipart/form-data POST whatever the size.
  ...(mode === "direct" ? { multipartThreshold: 2 ** 40 } : {}),
});
const ms = performance.now() - started;
clearInterval(sampler);
const maxRss = vmHwm();
await client.files.delete(file.file_no);
console.log(JSON.stringify({ rssBefore, maxRss, ms, size: file.size, peak }));
