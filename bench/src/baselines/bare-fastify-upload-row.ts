/**
 * Baseline for bench 4b: bench 4's bare Fastify + @fastify/multipart handler, plus the durable
 * work every stored upload needs: the file part streamed to disk under a fresh name while its
 * SHA-256 is computed, then one row inserted with a prepared statement into `files` of a database
 * Trove's migrations made (so the same columns, indexes, the folder and workspace count trigger and
 * the usage and quota triggers). No auth, sniffing, image header, duplicate check or response schema.
 *
 *   node --import tsx bare-fastify-upload-row.ts <directory> <databaseUrl>    prints "listening <port>"
 */
import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import fastifyMultipart from "@fastify/multipart";
import Fastify from "fastify";
import pg from "pg";

const [directory, databaseUrl] = process.argv.slice(2);
if (!directory || !databaseUrl)
  throw new Error("usage: bare-fastify-upload-row.ts <directory> <databaseUrl>");

// Trove's own pool size (apps/server/src/db/database.ts), so both sides have as many backends.
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const { rows } = await pool.query<{ id: string }>("SELECT id FROM workspaces ORDER BY created_at LIMIT 1");
const workspaceId = rows[0]?.id;
if (!workspaceId) throw new Error("the database has no workspace");

const INSERT = {
  name: "bare_insert_file",
  text: `INSERT INTO files (id, workspace_id, name, path, storage_key, size, mime_type, format, extension,
           hash, upload_source, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'jpeg', 'jpg', $8, 'direct', now())
         RETURNING file_no, created_at`,
};

const app = Fastify({ logger: false });
await app.register(fastifyMultipart, { limits: { fileSize: 100 * 1024 * 1024, files: 1 } });
app.post("/upload", async (request) => {
  const fields: Record<string, string> = {};
  let stored: { key: string; size: number; hash: string; type: string } | undefined;
  for await (const part of request.parts()) {
    if (part.type === "file") {
      const key = `${randomUUID()}-${part.filename}`;
      const hash = createHash("sha256");
      let size = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      await pipeline(part.file, counted, createWriteStream(join(directory, key)));
      stored = { key, size, hash: hash.digest("hex"), type: part.mimetype };
    } else {
      fields[part.fieldname] = String(part.value);
    }
  }
  if (!stored) throw new Error("no file part");
  const id = randomUUID();
  const name = `${id}-${fields.file_name ?? "upload"}`;
  const inserted = await pool.query({
    ...INSERT,
    values: [id, workspaceId, name, name, stored.key, stored.size, stored.type, stored.hash],
  });
  return { id, file_no: String(inserted.rows[0]?.file_no), name, path: name };
});
const address = await app.listen({ port: 0, host: "127.0.0.1" });
console.log(`listening ${new URL(address).port}`);
process.once("SIGTERM", () => {
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
