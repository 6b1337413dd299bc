/**
 * Baseline for bench 1: the machine's ceiling for "HTTP over loopback into a file". A bare
 * node:http server that does what Trove's fs multipart store does with the bytes and nothing
 * else: preallocate the file (ftruncate), write every part at its offset as it streams in,
 * fsync and rename at complete. No auth, hashing, signing, part records or database.
 * Row 1b's simpler ceiling: one PUT of the whole file streamed (`pipeline`) into a new file,
 * fsync at the end as a durable upload would.
 *
 *   node --import tsx bare-put-server.ts <directory>    prints "listening <port>"
 *
 *   POST /begin?size=N        -> {"id"}
 *   PUT  /part/<id>?offset=X  body: the part
 *   POST /complete/<id>
 *   PUT  /whole               body: the whole file -> {"id"}
 *   DELETE /files/<id>
 */
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";

const directory = process.argv[2];
if (!directory) throw new Error("usage: bare-put-server.ts <directory>");
const ID = /^[0-9a-f-]{36}$/;

const server = createServer((request, response) => {
  handle(request.method ?? "GET", new URL(request.url ?? "/", "http://localhost"), request)
    .then((body) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(body);
    })
    .catch((error: unknown) => {
      response.writeHead(500, { "content-type": "text/plain" });
      response.end(String(error));
    });
});

async function handle(method: string, url: URL, request: NodeJS.ReadableStream): Promise<string> {
  const [, action, id = ""] = url.pathname.split("/");
  if (method === "POST" && action === "begin") {
    const size = Number(url.searchParams.get("size"));
    const newId = randomUUID();
    const file = await open(join(directory as string, `${newId}.data`), "w");
    await file.truncate(size);
    await file.close();
    return JSON.stringify({ id: newId });
  }
  if (method === "PUT" && action === "whole") {
    const newId = randomUUID();
    const target = join(directory as string, `${newId}.bin`);
    await pipeline(request, createWriteStream(target, { flags: "wx" }));
    const file = await open(target, "r+");
    await file.sync();
    await file.close();
    return JSON.stringify({ id: newId });
  }
  if (!ID.test(id)) throw new Error("bad id");
  const data = join(directory as string, `${id}.data`);
  if (method === "PUT" && action === "part") {
    const offset = Number(url.searchParams.get("offset"));
    await pipeline(request, createWriteStream(data, { flags: "r+", start: offset }));
    return "{}";
  }
  if (method === "POST" && action === "complete") {
    const file = await open(data, "r+");
    await file.sync();
    await file.close();
    await rename(data, join(directory as string, `${id}.bin`));
    return "{}";
  }
  if (method === "DELETE" && action === "files") {
    await rm(join(directory as string, `${id}.bin`), { force: true });
    return "{}";
  }
  throw new Error(`no route ${method} ${url.pathname}`);
}

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
