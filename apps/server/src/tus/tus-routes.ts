/**
 * tus 1.0.0 on the API (issue #35), served by @tus/server over Trove's storage and database:
 *
 *   OPTIONS /api/v1/tus          discovery (no key): Tus-Version, Tus-Extension, Tus-Max-Size
 *   POST    /api/v1/tus          creation, creation-with-upload: 201 + Location
 *   HEAD    /api/v1/tus/:id      Upload-Offset, Upload-Length, Upload-Metadata, Upload-Expires
 *   PATCH   /api/v1/tus/:id      Content-Type application/offset+octet-stream; 204 + Upload-Offset
 *   DELETE  /api/v1/tus/:id      termination: bytes and row removed
 *
 * Keys as on every upload (public, private, upload token; `x-api-key` or `Authorization: Bearer`),
 * checked by the auth plugin before anything is read. An upload belongs to the credential that
 * created it: any other gets 404, like an unknown id (a private key of the workspace may DELETE).
 * The PATCH that stores the last byte (or a POST carrying the whole body) registers the file and
 * answers `Trove-File-No` and `Trove-File-Url`; a later PATCH at the full offset answers the same.
 *
 * Refusals are Trove's upload envelope as JSON (`{ error, success: false, errorCode, message }`)
 * with the tus status: tus-js-client and Uppy show the response text, which carries the message.
 *
 * The request body is never parsed by Fastify: the raw request is handed to @tus/server as a Web
 * request, and its Web response copied onto the reply (so the app's CORS, request id and error
 * hooks apply; the app-wide CORS plugin allows and exposes the tus headers, src/plugins/cors.ts).
 */
import { Readable } from "node:stream";
import { Server } from "@tus/server";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "../errors/http-error.js";
import { type SweepTimer, startSweepTimer } from "../multipart/sweep-timer.js";
import type { AuthContext } from "../plugins/auth.js";
import type { StorageDriver } from "../storage/driver.js";
import { uuidV7 } from "../uploads/uuid-v7.js";
import { sweepExpiredTusUploads } from "./sweep-tus-uploads.js";
import type { TusBytes } from "./tus-bytes.js";
import { fsTusBytes, hasLocalPaths } from "./tus-fs-bytes.js";
import { type TusRequestContext, tusHooks, tusNotFound } from "./tus-hooks.js";
import { type MultipartDriver, s3TusBytes } from "./tus-s3-bytes.js";
import { TroveTusStore, TUS_EXTENSIONS } from "./tus-store.js";

export const TUS_PATH = "/api/v1/tus";
const TUS_VERSION = "1.0.0";
const PATCH_CONTENT_TYPE = "application/offset+octet-stream";
/** What a header that @tus/server found invalid must be. */
const HEADER_RULES: Record<string, string> = {
  "upload-length": "Upload-Length must be a whole number of bytes",
  "upload-offset": "Upload-Offset must be a whole number of bytes",
  "upload-metadata":
    "Upload-Metadata must be comma-separated `key base64value` pairs, keys unique and without spaces",
  "tus-resumable": "Tus-Resumable must be 1.0.0",
};
/** Response headers of @tus/server that the app's own CORS plugin sets instead. */
const OWN_HEADERS = /^(access-control-|content-length$|connection$)/i;

/**
 * The tus routes. Not in @trove/schema's route table, whose entries are JSON/form endpoints with
 * GET/POST/PATCH/PUT/DELETE: tus is a header protocol with HEAD and OPTIONS, documented in the
 * server README's "tus" section instead (test/route-table.test.ts reads this list).
 */
export const TUS_ROUTES = [
  { methods: ["OPTIONS"], url: TUS_PATH, auth: "none" },
  { methods: ["OPTIONS"], url: `${TUS_PATH}/:id`, auth: "none" },
  { methods: ["POST"], url: TUS_PATH, auth: "any" },
  { methods: ["HEAD", "PATCH", "DELETE"], url: `${TUS_PATH}/:id`, auth: "any" },
] as const;

export interface TusRoutesOptions {
  /** The byte sink; default: the fs sink when the storage driver has local paths. */
  bytes?: TusBytes;
}

function isPatchContentType(value: string | undefined): boolean {
  return (value ?? "").split(";", 1)[0]?.trim().toLowerCase() === PATCH_CONTENT_TYPE;
}

/** A tus error object (`{ status_code, body }`), a thrown HttpError, or anything else (a 500). */
function toHttpError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  if (typeof error === "object" && error !== null && "status_code" in error) {
    const { status_code: status, body } = error as { status_code: number; body?: string };
    if (status === 404) return tusNotFound();
    const text = String(body ?? "").trim();
    // @tus/server's header check says "Invalid upload-length upload-metadata": name what is wanted.
    const invalid = /^Invalid ([a-z-]+(?: [a-z-]+)*)$/i.exec(text);
    if (status === 400 && invalid) {
      const names = (invalid[1] as string).split(" ");
      return new HttpError(
        400,
        names.map((name) => HEADER_RULES[name.toLowerCase()] ?? `Invalid ${name} header`).join("; "),
      );
    }
    return new HttpError(status, text || "tus request refused");
  }
  return error;
}

/** The raw request as a Web request, its body streamed (never buffered). */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  const raw = request.raw.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  const withBody = request.method === "POST" || request.method === "PATCH";
  // The origin as Fastify reads it (X-Forwarded-Proto/-Host only behind a trusted proxy,
  // TROVE_TRUST_PROXY), so `Location` is https behind a TLS proxy.
  return new Request(`${request.protocol}://${request.host || "localhost"}${request.url}`, {
    method: request.method,
    headers,
    ...(withBody ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
}

/** The sink for the driver: local files in place, else the driver's multipart upload. */
function tusBytesFor(storage: StorageDriver): TusBytes | undefined {
  if (hasLocalPaths(storage)) return fsTusBytes(storage);
  if (storage.multipart) return s3TusBytes(storage as MultipartDriver);
  return undefined;
}

export const tusRoutes: FastifyPluginAsync<TusRoutesOptions> = async (app, options) => {
  const { storage, config } = app;
  const bytes = options.bytes ?? tusBytesFor(storage);
  if (!bytes) {
    app.log.warn(`tus: the ${storage.kind} storage driver has no tus store; ${TUS_PATH} is not served`);
    return;
  }
  const maxBytes = config.multipart.maxFileBytes;
  const store = new TroveTusStore({ db: app.db, bytes, expirySeconds: config.tusExpirySeconds });
  const contexts = new WeakMap<Request, TusRequestContext>();
  const hooks = tusHooks({
    upload: app.uploadDeps,
    store,
    maxBytes,
    expirySeconds: config.tusExpirySeconds,
    contexts,
  });
  const server = new Server({
    path: TUS_PATH,
    datastore: store,
    namingFunction: () => uuidV7(),
    generateUrl: (req, { path, id }) => `${new URL(req.url).origin}${path}/${id}`,
    ...hooks,
  });

  // Expired uploads go on the multipart sweep's clock, where workers run (src/jobs/start-workers.ts).
  if (app.jobRunner) {
    let sweeper: SweepTimer | undefined;
    app.addHook("onReady", async () => {
      sweeper = startSweepTimer({
        intervalMs: config.multipart.sweepIntervalMs,
        run: () => sweepExpiredTusUploads({ db: app.db, bytes, forget: (id) => store.hashers.delete(id) }),
        onError: (error) => app.log.warn({ err: error }, "tus sweep failed; it runs again next interval"),
      });
    });
    app.addHook("preClose", async () => {
      await sweeper?.stop();
    });
  }

  // The body is the tus stream: no parser reads it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));

  // Every answer (also the CORS plugin's preflight, and errors) says which protocol it speaks.
  app.addHook("onSend", async (request, reply, payload) => {
    reply.header("Tus-Resumable", TUS_VERSION);
    if (request.method === "OPTIONS") {
      reply.header("Tus-Version", TUS_VERSION);
      reply.header("Tus-Extension", TUS_EXTENSIONS.join(","));
      reply.header("Tus-Max-Size", String(maxBytes));
    }
    return payload;
  });

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === "OPTIONS") return reply.code(204).send();
    if (request.method === "PATCH" && !isPatchContentType(request.headers["content-type"])) {
      throw new HttpError(415, `Content-Type must be ${PATCH_CONTENT_TYPE}`, {
        errorCode: "UNSUPPORTED_MEDIA_TYPE",
      });
    }
    const webRequest = webRequestOf(request);
    const context: TusRequestContext = { auth: request.auth as AuthContext };
    contexts.set(webRequest, context);
    const response = await server.handleWeb(webRequest);
    if (context.error !== undefined) throw toHttpError(context.error);
    const text = await response.text();
    if (response.status >= 400) throw toHttpError({ status_code: response.status, body: text });
    response.headers.forEach((value, name) => {
      if (!OWN_HEADERS.test(name)) reply.header(name, value);
    });
    return reply.code(response.status).send(text === "" ? undefined : text);
  };

  const common = { errorGroup: "upload" as const, drainUnreadBodyUpTo: 64 * 1024 * 1024 };
  for (const { methods, url, auth } of TUS_ROUTES) {
    // A one-shot token that created the upload goes on with it: the count is spent at the end.
    const spent = url !== TUS_PATH ? { acceptsSpentUploadToken: true } : {};
    app.route({ method: [...methods], url, config: { ...common, ...spent, auth }, handler: handle });
  }
};
