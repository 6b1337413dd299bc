// `@trove/sdk/token-route/fastify`: the token route as a Fastify plugin,
// `app.register(fastifyTokenRoute, { path: "/api/upload-token", privateKey, baseUrl, policy })`.
// Fastify is not a dependency: the plugin is typed by what it calls on the instance.
import { createTokenRoute, type TokenRouteOptions } from "./index.js";
import { type NodeRequestLike, webRequest } from "./node-bridge.js";

export type { TokenRouteOptions } from "./index.js";

export type FastifyTokenRouteOptions = TokenRouteOptions & {
  /** Where the route answers, e.g. `/api/upload-token`. */
  path: string;
};

interface FastifyReplyLike {
  code(status: number): FastifyReplyLike;
  headers(values: Record<string, string>): FastifyReplyLike;
  send(payload: Buffer): FastifyReplyLike;
}

/** The part of a Fastify instance the plugin uses. */
export interface FastifyInstanceLike {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    contentType: string,
    options: { parseAs: "buffer" },
    parser: (request: unknown, body: Buffer, done: (error: Error | null, body?: Buffer) => void) => void,
  ): void;
  route(options: {
    method: Array<(typeof METHODS)[number]>;
    url: string;
    handler: (request: { raw: NodeRequestLike; body?: unknown }, reply: FastifyReplyLike) => Promise<unknown>;
  }): unknown;
}

// Every method reaches the Web handler, so a GET gets its 405 with `Allow: POST` rather than a 404.
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * Registers the route. Inside the plugin's own scope (Fastify's encapsulation) every body is
 * kept as bytes for the Web handler, whatever its type: the app's parsers elsewhere are
 * untouched, and Fastify's `bodyLimit` still caps what is read.
 */
export async function fastifyTokenRoute(
  instance: FastifyInstanceLike,
  options: FastifyTokenRouteOptions,
): Promise<void> {
  const { path, ...routeOptions } = options;
  const handle = createTokenRoute(routeOptions as TokenRouteOptions);
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
  instance.route({
    method: [...METHODS],
    url: path,
    handler: async (request, reply) => {
      // No body parsed means none was sent (Fastify has read the stream by now either way).
      const body = request.body instanceof Uint8Array ? request.body : new Uint8Array();
      const response = await handle(webRequest(request.raw, { body }));
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return reply
        .code(response.status)
        .headers(headers)
        .send(Buffer.from(await response.arrayBuffer()));
    },
  });
}
