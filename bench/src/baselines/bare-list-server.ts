/**
 * Baseline for bench 9: a bare Fastify + `pg` handler per list that runs only the page query on
 * the same table as trove-server (no authentication, no count, no totals, no response schema),
 * with the same pool size (10).
 *
 *   node --import tsx bare-list-server.ts <database url> <workspace id>    prints "listening <port>"
 *
 * GET /files: page 1 of the workspace's files, newest first, 25 rows (the statement trove-server's
 * listFiles sends for it). GET /folders: the root folders by name, without totals.
 */
import Fastify from "fastify";
import pg from "pg";

const [url, workspaceId] = process.argv.slice(2);
if (!url || !workspaceId) throw new Error("usage: bare-list-server.ts <database url> <workspace id>");

const pool = new pg.Pool({ connectionString: url, max: 10 });
const app = Fastify({ logger: false });
app.get("/files", async () => {
  const { rows } = await pool.query(
    `SELECT r.file_no, r.name, r.path, r.size, r.format, r.extension, r.width, r.height, r.created_at,
            r.thumbnail_key, r.is_private
     FROM (SELECT f.file_no FROM files f WHERE f.workspace_id = $1::uuid
           ORDER BY f.created_at DESC, f.file_no DESC LIMIT 25 OFFSET 0) k
     JOIN files r ON r.file_no = k.file_no
     ORDER BY r.created_at DESC, r.file_no DESC`,
    [workspaceId],
  );
  return { files: rows.map((row) => ({ ...row, file_no: String(row.file_no), size: Number(row.size) })) };
});
app.get("/folders", async () => {
  const { rows } = await pool.query(
    `SELECT folder_no, name, created_at FROM folders
     WHERE workspace_id = $1::uuid AND parent_id IS NULL ORDER BY lower(name), name, id`,
    [workspaceId],
  );
  return { folders: rows };
});
const address = await app.listen({ port: 0, host: "127.0.0.1" });
console.log(`listening ${new URL(address).port}`);
process.once("SIGTERM", () => {
  app.close().then(() => pool.end().then(() => process.exit(0)));
});
