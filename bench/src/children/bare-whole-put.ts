/**
 * Row 1b's baseline client, in a process of its own: one node:http PUT of the file (`pipeline`
 * from a read stream) to bare-put-server.ts's `/whole`, timed from the request to the answer.
 * Prints `{ ms, id, cpuSeconds }` (this process's CPU during the PUT). In the bench process it shared an event loop and a heap with autocannon's
 * leftovers and the SDK's last upload, and read about 388 MB/s where the same PUT from its own
 * process reads about 540 MiB/s.
 *
 *   node --import tsx bare-whole-put.ts <baseUrl> <path> <size>
 */
import { bareWholePut } from "../support/bare-upload-client.js";

const [baseUrl, path, size] = process.argv.slice(2);
if (!baseUrl || !path || !size) throw new Error("usage: bare-whole-put.ts <baseUrl> <path> <size>");

const cpu = process.cpuUsage();
const started = performance.now();
const id = await bareWholePut(baseUrl, path, Number(size));
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ ms, id, cpuSeconds: (used.user + used.system) / 1e6 }));
