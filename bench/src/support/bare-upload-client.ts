/**
 * The baseline's client for bench 1: a multipart upload of a file path as the SDK sent it before
 * it read parts as file ranges (a file-backed Blob from fs.openAsBlob, sliced into parts of the
 * same size, PUT with fetch, `concurrency` at a time), against bare-put-server.ts. Kept as it was
 * so row 1 stays comparable with earlier runs. For row 1b, the simplest
 * client there is: one node:http PUT with the file piped into it.
 */
import { createReadStream, openAsBlob } from "node:fs";
import { request } from "node:http";
import { pipeline } from "node:stream/promises";

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

/** One PUT of the whole file (node:http, `pipeline` from a read stream); resolves to its id. */
export async function bareWholePut(baseUrl: string, path: string, size: number): Promise<string> {
  const req = request(`${baseUrl}/whole`, {
    method: "PUT",
    headers: { "content-type": "application/octet-stream", "content-length": String(size) },
  });
  const answer = new Promise<string>((resolve, reject) => {
    req.once("error", reject);
    req.once("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.once("error", reject);
      response.once("end", () => {
        if (response.statusCode === 200) resolve(text);
        else reject(new Error(`PUT /whole: ${response.statusCode} ${text}`));
      });
    });
  });
  await pipeline(createReadStream(path), req);
  return (JSON.parse(await answer) as { id: string }).id;
}
