/**
 * Reference for bench 3's direct-upload client: the same form body (`file_name`, then the file as
 * a file-backed Blob) posted with Node's own fetch and FormData, no SDK. Prints its VmHWM and
 * the most ArrayBuffer memory seen, as sdk-upload.ts does.
 *
 *   node --import tsx fetch-form-upload.ts <baseUrl> <apiKey> <path>
 */
import { openAsBlob, readFileSync } from "node:fs";
import { basename } from "node:path";

const [baseUrl, apiKey, path] = process.argv.slice(2);
if (!baseUrl || !apiKey || !path) throw new Error("usage: fetch-form-upload.ts <baseUrl> <apiKey> <path>");

const rssBefore = process.memoryUsage().rss;
const peak = { heapUsed: 0, arrayBuffers: 0 };
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  peak.heapUsed = Math.max(peak.heapUsed, usage.heapUsed);
  peak.arrayBuffers = Math.max(peak.arrayBuffers, usage.arrayBuffers);
}, 10);
const started = performance.now();
const form = new FormData();
form.append("file_name", basename(path));
form.append("file", await openAsBlob(path), basename(path));
const response = await fetch(`${baseUrl}/api/v1/uploads`, {
  method: "POST",
  headers: { "x-api-key": apiKey },
  body: form,
});
const body = (await response.json()) as { size?: number; file_size?: number; data?: { file_size?: number } };
const ms = performance.now() - started;
clearInterval(sampler);
if (!response.ok) throw new Error(`upload failed: ${response.status} ${JSON.stringify(body)}`);
const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
const size = body.size ?? body.file_size ?? body.data?.file_size ?? 0;
console.log(JSON.stringify({ rssBefore, maxRss: Number(hwm?.[1]) * 1024, ms, size, peak }));
