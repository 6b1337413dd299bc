/**
 * Baseline for bench 16: a bare Fastify handler that mints a signed delivery URL the way
 * trove-server does (apps/server/src/signing/delivery-signature.ts in apps/server: HMAC-SHA256 of
 * "v2\n{workspace_no}\n{file id}\n{path}\n{transform}\n{exp}", base64url, named by the key's id),
 * with nothing around it: the key is one header compared with a string, the file is one named
 * prepared statement on `pg` by workspace and file_no, the body is parsed but not validated
 * against a schema, no rate limit, no response schema. Same pool size as trove-server (10).
 *
 *   node --import tsx bare-signed-url-server.ts <database url> <workspace id> <workspace_no> <assets url> <private key> <signing key hex>
 *     prints "listening <port>"
 *
 * POST /api/v1/files/:fileNo/signed-url  { expires_in? }  →  { success: true, data: { url, expires_at } }
 */
import { createHash, createHmac } from "node:crypto";
import Fastify from "fastify";
import pg from "pg";

const [url, workspaceId, workspaceNo, assetsUrl, apiKey, signingKeyHex] = process.argv.slice(2);
if (!url || !workspaceId || !workspaceNo || !assetsUrl || !apiKey || !signingKeyHex) {
  throw new Error(
    "usage: bare-signed-url-server.ts <database url> <workspace id> <workspace_no> <assets url> <key> <signing key hex>",
  );
}
const secret = Buffer.from(signingKeyHex, "hex");
const keyId = createHash("sha256").update(secret).digest("hex").slice(0, 8);
const DEFAULT_EXPIRES_IN = 3600;

const pool = new pg.Pool({ connectionString: url, max: 10 });
const app = Fastify({ logger: false });

app.post<{ Params: { fileNo: string }; Body: { expires_in?: number } | undefined }>(
  "/api/v1/files/:fileNo/signed-url",
  async (request, reply) => {
    if (request.headers["x-api-key"] !== apiKey) return reply.code(401).send({ error: "Unauthorized" });
    const { rows } = await pool.query<{ id: string; path: string }>({
      name: "bare_file_to_sign",
      text:
        "SELECT id::text AS id, path FROM files WHERE workspace_id = $1::uuid AND file_no = $2 " +
        "AND (expires_at IS NULL OR expires_at > now())",
      values: [workspaceId, request.params.fileNo],
    });
    const file = rows[0];
    if (!file) return reply.code(404).send({ error: "File not found" });
    const expiresAt = new Date(Date.now() + (request.body?.expires_in ?? DEFAULT_EXPIRES_IN) * 1000);
    const exp = Math.floor(expiresAt.getTime() / 1000);
    const mac = createHmac("sha256", secret)
      .update(`v2\n${workspaceNo}\n${file.id}\n${file.path}\n\n${exp}`)
      .digest("base64url");
    const path = file.path.split("/").map(encodeURIComponent).join("/");
    return {
      success: true,
      data: {
        url: `${assetsUrl}/${workspaceNo}/${path}?exp=${exp}&sig=${keyId}.${mac}`,
        expires_at: expiresAt.toISOString(),
      },
    };
  },
);
const address = await app.listen({ port: 0, host: "127.0.0.1" });
console.log(`listening ${new URL(address).port}`);
process.once("SIGTERM", () => {
  app.close().then(() => pool.end().then(() => process.exit(0)));
});
