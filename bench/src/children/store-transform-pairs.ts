/**
 * Bench 6a's client, in a process of its own: `runs` pairs of uploads of one JPEG, alternating,
 * each timed from the call to the parsed answer. Trove: `client.upload(bytes, { transform:
 * "w_800" })` with the SDK; baseline: the same form (`file_name`, `transform`, `file`) posted
 * with fetch to the bare resize handler. Prints `{ trove: ms[], bare: ms[], storedWidth }`.
 *
 * Why a process of its own, run with `--expose-gc`: each upload leaves about 8 MB of garbage in
 * its client (the form's Blob, and the chunks undici copies it into), and V8 collects it with a
 * major collection whose cost grows with the heap. In the bench process (tens of MB of heap)
 * those cost 70 to 90 ms of CPU on the shared cores and landed on one side or the other by
 * chance, so 6a read anywhere from 1.0× to 1.6× on the same code. Here the heap is small, and a
 * full collection runs before every timed upload, on both sides.
 *
 *   node --expose-gc --conditions=dev-source --import tsx store-transform-pairs.ts \
 *     <baseUrl> <apiKey> <bareUploadUrl> <jpegPath> <runs>
 */
import { readFileSync } from "node:fs";
import { createClient } from "@trove/sdk/node";

const [baseUrl, apiKey, bareUrl, path, runs = "15"] = process.argv.slice(2);
if (!baseUrl || !apiKey || !bareUrl || !path)
  throw new Error("usage: store-transform-pairs.ts <baseUrl> <apiKey> <bareUploadUrl> <jpegPath> <runs>");

const FILE_NAME = "photo.jpg";
const TRANSFORM = "w_800";
const bytes = new Uint8Array(readFileSync(path));
// No retries: a failure must show, not be absorbed into the timing.
const client = createClient({ apiKey, baseUrl, maxRetries: 0 });
const collectGarbage = (globalThis as { gc?: () => void }).gc;
if (!collectGarbage) throw new Error("store-transform-pairs.ts needs --expose-gc");

const trove = async (): Promise<{ ms: number; width: number | undefined }> => {
  collectGarbage();
  const started = performance.now();
  const file = await client.upload(bytes, {
    fileName: FILE_NAME,
    transform: TRANSFORM,
    multipartThreshold: 2 ** 40,
  });
  const ms = performance.now() - started;
  await client.files.delete(file.file_no);
  return { ms, width: file.width ?? undefined };
};

const bare = async (): Promise<number> => {
  collectGarbage();
  const started = performance.now();
  const form = new FormData();
  form.set("file_name", FILE_NAME);
  form.set("transform", TRANSFORM);
  form.set("file", new Blob([bytes], { type: "image/jpeg" }), FILE_NAME);
  const response = await fetch(bareUrl, { method: "POST", body: form });
  const body = (await response.json()) as { width?: number };
  const ms = performance.now() - started;
  if (!response.ok || body.width !== 800)
    throw new Error(`bare resize: ${response.status} ${JSON.stringify(body)}`);
  return ms;
};

await trove();
await bare();
const report = { trove: [] as number[], bare: [] as number[], storedWidth: undefined as number | undefined };
for (let run = 0; run < Number(runs); run += 1) {
  const upload = await trove();
  report.trove.push(upload.ms);
  report.storedWidth = upload.width;
  report.bare.push(await bare());
}
console.log(JSON.stringify(report));
