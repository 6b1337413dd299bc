/**
 * The baseline's client for bench 1: the same client-side work as the SDK's multipart upload of
 * a file path (a file-backed Blob from fs.openAsBlob, sliced into parts of the same size, PUT
 * with fetch, `concurrency` at a time), against bare-put-server.ts.
 */
import { openAsBlob } from "node:fs";

async function call(url: string, init: RequestInit): Promise<string> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method} ${url}: ${response.status} ${text}`);
  return text;
}

export async function bareMultipartUpload(
  baseUrl: string,
  path: string,
  partSize: number,
  concurrency: number,
): Promise<string> {
  const blob = await openAsBlob(path);
  const size = blob.size;
  const { id } = JSON.parse(await call(`${baseUrl}/begin?size=${size}`, { method: "POST" })) as {
    id: string;
  };
  const count = Math.ceil(size / partSize);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const index = next++;
      if (index >= count) return;
      const start = index * partSize;
      await call(`${baseUrl}/part/${id}?offset=${start}`, {
        method: "PUT",
        headers: { "content-type": "application/octet-stream" },
        body: blob.slice(start, Math.min(size, start + partSize)),
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await call(`${baseUrl}/complete/${id}`, { method: "POST" });
  return id;
}

export async function bareDelete(baseUrl: string, id: string): Promise<void> {
  await call(`${baseUrl}/files/${id}`, { method: "DELETE" });
}
