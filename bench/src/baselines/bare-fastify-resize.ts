/**
 * Baseline for bench 6a: a bare Fastify + @fastify/multipart handler that reads the text fields,
 * collects the file part into one Buffer (`part.toBuffer()`), resizes it with
 * `sharp(bytes).resize({ width: 800 })`, writes the output to disk under a fresh name and
 * answers with a small JSON body. No auth, no content sniffing, hashing, limits or database.
 *
 *   node --import tsx bare-fastify-resize.ts <directory>    prints "listening <port>"
 */
import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import fastifyMultipart from "@fastify/multipart";
import Fastify from "fastify";
import sharp from "sharp";

const directory = process.argv[2];
if (!directory) throw new Error("usage: bare-fastify-resize.ts <directory>");

const app = Fastify({ logger: false });
await app.register(fastifyMultipart, { limits: { fileSize: 100 * 1024 * 1024, files: 1 } });
app.post("/upload", async (request) => {
  const fields: Record<string, string> = {};
  let stored: string | undefined;
  let width: number | undefined;
  for await (const part of request.parts()) {
    if (part.type === "file") {
      const { data, info } = await sharp(await part.toBuffer())
        .resize({ width: 800 })
        .toBuffer({ resolveWithObject: true });
      stored = `${randomUUID()}-${part.filename}`;
      await writeFile(join(directory, stored), data);
      width = info.width;
    } else {
      fields[part.fieldname] = String(part.value);
    }
  }
  return { name: fields.file_name, path: stored, width };
});
const address = await app.listen({ port: 0, host: "127.0.0.1" });
console.log(`listening ${new URL(address).port}`);
process.once("SIGTERM", () => {
  app.close().then(() => process.exit(0));
});
