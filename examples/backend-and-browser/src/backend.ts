/**
 * The backend: holds the PRIVATE key and never hands it out. It serves the upload page (which
 * holds no key at all), mints a short-lived upload token for each upload the page makes, and
 * lists the files this browser uploaded. Each browser gets a session cookie (src/browser-session.ts)
 * whose id names its folder, `uploads/<session>`: tokens store only there, and the list shows only
 * that. `createBackend()` returns the Fastify app without listening (src/main.ts listens; tests use
 * it directly).
 *
 *   GET  /                  the page; its only configuration is { baseUrl, assetsUrl }
 *   GET  /app.js            the page's script, bundled at start (src/page/app.ts + @trove/sdk/upload)
 *   POST /api/upload-token  a one-file upload token (text/plain), bound to pageUploadPolicy(session)
 *   GET  /api/files         this session's files, newest first: { files: [{ file_no, name, … }], hasNext }
 *
 * In a real application the `/api/` routes sit behind your own user authentication (and the
 * token route decides per user what they may upload); here they are open to whoever can reach
 * the backend, which listens on 127.0.0.1 by default.
 */
import fastifyCookie from "@fastify/cookie";
import { createClient, TroveError } from "@trove/sdk";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { browserSession } from "./browser-session.js";
import { bundlePage } from "./bundle-page.js";
import type { BackendConfig } from "./config.js";
import { listFiles } from "./list-files.js";
import { pageHtml } from "./page/page-html.js";
import { pageUploadPolicy } from "./upload-policy.js";

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
  const html = pageHtml({ baseUrl: config.baseUrl, assetsUrl: config.assetsUrl });
  const script = await bundlePage();

  const app = Fastify({ logger: options.logger ?? false });
  await app.register(fastifyCookie);
  app.get("/", (request, reply) => {
    browserSession(request, reply);
    return reply.type("text/html; charset=utf-8").send(html);
  });
  app.get("/app.js", (_request, reply) => reply.type("text/javascript; charset=utf-8").send(script));

  // POST, not GET: a token is a credential, so no cache, prefetch or <img src> should fetch one.
  app.post("/api/upload-token", async (request, reply) => {
    try {
      const { token } = await trove.uploadTokens.create(pageUploadPolicy(browserSession(request, reply)));
      return reply.header("cache-control", "no-store").type("text/plain; charset=utf-8").send(token);
    } catch (error) {
      return troveFailed(request, reply, error, "Could not get an upload token from Trove");
    }
  });

  app.get<{ Querystring: { page?: string } }>("/api/files", async (request, reply) => {
    const page = Math.max(1, Number.parseInt(request.query.page ?? "1", 10) || 1);
    try {
      return await listFiles(trove, browserSession(request, reply), page);
    } catch (error) {
      return troveFailed(request, reply, error, "Could not list files from Trove");
    }
  });
  return app;
}

/** 502 that says what went wrong without echoing anything about the key. */
function troveFailed(request: FastifyRequest, reply: FastifyReply, error: unknown, what: string) {
  request.log.error({ err: error }, what);
  const status = error instanceof TroveError ? error.status : undefined;
  return reply.status(502).send({ error: what, status: status ?? null });
}
