/**
 * The backend: serves the upload page (with the PUBLIC key in it) and `GET /api/files`, which asks
 * Trove for the workspace's files with the PRIVATE key. `createBackend()` returns the Fastify app
 * without listening (src/main.ts listens; tests use it directly).
 *
 *   GET /            the page; its only configuration is { publicKey, baseUrl, assetsUrl }
 *   GET /app.js      the page's script, bundled at start (src/page/app.ts + @trove/sdk/upload)
 *   GET /api/files   newest files first: { files: [{ file_no, name, url, thumbnail, … }], hasNext }
 *
 * In a real application `/api/files` sits behind your own user authentication; here it is open to
 * whoever can reach the backend, which listens on 127.0.0.1 by default.
 */
import { createClient, TroveError } from "@trove/sdk";
import Fastify, { type FastifyInstance } from "fastify";
import { bundlePage } from "./bundle-page.js";
import type { BackendConfig } from "./config.js";
import { listFiles } from "./list-files.js";
import { pageHtml } from "./page/page-html.js";

export async function createBackend(
  config: BackendConfig,
  options: { logger?: boolean } = {},
): Promise<FastifyInstance> {
  // Server side only: this client holds the private key and is never sent to the browser.
  const trove = createClient({
    apiKey: config.privateKey,
    baseUrl: config.baseUrl,
    assetsUrl: config.assetsUrl,
  });
  const html = pageHtml({
    publicKey: config.publicKey,
    baseUrl: config.baseUrl,
    assetsUrl: config.assetsUrl,
  });
  const script = await bundlePage();

  const app = Fastify({ logger: options.logger ?? false });
  app.get("/", (_request, reply) => reply.type("text/html; charset=utf-8").send(html));
  app.get("/app.js", (_request, reply) => reply.type("text/javascript; charset=utf-8").send(script));
  app.get<{ Querystring: { page?: string } }>("/api/files", async (request, reply) => {
    const page = Math.max(1, Number.parseInt(request.query.page ?? "1", 10) || 1);
    try {
      return await listFiles(trove, page);
    } catch (error) {
      // Say what went wrong without echoing anything about the key.
      request.log.error({ err: error }, "listing files from Trove failed");
      const status = error instanceof TroveError ? error.status : undefined;
      return reply.status(502).send({ error: "Could not list files from Trove", status: status ?? null });
    }
  });
  return app;
}
