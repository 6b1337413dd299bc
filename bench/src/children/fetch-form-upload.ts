/**
 * Reference for bench 3's direct-upload client: the same form body (`file_name`, then the file as
 * a file-backed Blob) posted with Node's own fetch and FormData, no SDK. Prints its VmHWM and
 * the most ArrayBuffer memory seen, as sdk-upload.ts does.
 *
 *   node --import tsx fetch-form-upload.ts <baseUrl> <apiKey> <path>
 */
import { openAsBlob } from "node:fs";
import { basename } from "node:path";
import { samplePeaks, vmHwm } from "./memory-peak.js";

const [baseUrl, apiKey, path] = process.argv.slice(2);
if (!baseUrl || !apiKey || !path) throw new Error("usage: fetch-form-upload.ts <baseUrl> <apiKey> <path>");

const rssBefore = process.memoryUsage().rss;
const sampler = samplePeaks();
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
const peak = sampler.stop();
if (!response.ok) throw new Error(`upload failed: ${response.status} ${JSON.stringify(body)}`);
const size = body.size ?? body.file_size ?? body.data?.file_size ?? 0;
console.log(JSON.stringify({ rssBefore, maxRss: vmHwm(), ms, size, peak }));
