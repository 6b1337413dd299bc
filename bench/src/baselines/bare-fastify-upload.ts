/**
 * Baseline for bench 4: a bare Fastify + @fastify/multipart handler that reads the text fields
 * and streams the file part to disk under a fresh name, and answers with a small JSON body.
 * No auth, no content sniffing, hashing, image probing, thumbnail or database.
 *
 *   node --import tsx bare-fastify-upload.ts <directory>    prints "listening <port>"
 */
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import fastifyMultipart from "@fastify/multipart";
import Fastify from "fastify";

const directory = process.argv[2];
if (!directory) throw new Error("usage: bare-fastify-upload.ts <directory>");

const app = Fastify({ logger: false });
await app.register(fastifyMultipart, { limits: { fileSize: 100 * 1024 * 1024, files: 1 } });
app.post("/upload", async (request) => {
  const fields: Record<string, string> = {};
  let stored: string | undefined;
  for await (const part of request.parts()) {
    if (part.type === "file") {
      stored = `${randomUUID()}-${part.filename}`;
      await pipeline(part.file, createWriteStream(join(directory, stored)));
    } else {
      fields[part.fieldname] = String(part.value);
    }
  }
  return { name: fields.file_name, path: stored };
});
const address = await app.listen({ port: 0, host: "127.0.0.1" });
console.log(`listening ${new URL(address).port}`);
process.once("SIGTERM", () => {
  app.close().then(() => process.exit(0));
});
