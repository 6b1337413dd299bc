// `@trove/sdk/token-route/express`: the token route as Express middleware,
// `app.post("/api/upload-token", expressTokenRoute({ privateKey, baseUrl, policy }))`.
// Express is not a dependency: `req` and `res` are typed by what the bridge reads of them.
import { createTokenRoute, type TokenRouteOptions } from "./index.js";
import { type NodeRequestLike, type NodeResponseLike, sendNodeResponse, webRequest } from "./node-bridge.js";

export type { TokenRouteOptions } from "./index.js";

/** Express's `req` as far as the route reads it: `body` is set when a body parser ran first. */
export interface ExpressRequestLike extends NodeRequestLike {
  body?: unknown;
  /** Express's own, which keeps the mount path out of `url` in a router. */
  originalUrl?: string;
}

export type ExpressTokenRoute = (
  req: ExpressRequestLike,
  res: NodeResponseLike,
  next: (error?: unknown) => void,
) => void;

/**
 * Middleware answering exactly as `createTokenRoute` does (405 but for POST, 403 when `authorize`
 * says no, `{ token, expires_at, … }` as JSON, `no-store`). A failure of writing the answer goes
 * to `next(error)`, Express's error handling.
 */
export function expressTokenRoute(options: TokenRouteOptions): ExpressTokenRoute {
  const handle = createTokenRoute(options);
  return (req, res, next) => {
    const request = webRequest(req, { body: parsedBody(req.body), url: req.originalUrl });
    handle(request)
      .then((response) => sendNodeResponse(res, response))
      .catch(next);
  };
}

/**
 * A body parser (express.json(), express.text(), express.raw()) has read the stream already: its
 * result becomes the body again (an object as JSON). Without one, `req.body` is undefined and the
 * stream is read as it comes.
 */
function parsedBody(body: unknown): Uint8Array | undefined {
  if (body === undefined) return undefined;
  if (body instanceof Uint8Array) return body;
  return new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body));
}
