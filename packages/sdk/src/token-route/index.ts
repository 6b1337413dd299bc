// `@trove/sdk/token-route`: a server's upload-token endpoint as one Web-standard handler,
// `(request: Request) => Promise<Response>`, the shape of a Next.js App Router route handler, Hono,
// Remix, Bun, Deno and Cloudflare Workers. `./express` and `./fastify` adapt it to Node frameworks.
// Server code only: it holds the private key (or a client made with it).
import type { CreateUploadTokenBody, UploadTokenResponse } from "@trove/schema";
import { keyKindOf } from "@trove/schema/zod-free";
import { createClient } from "../internal/client/create-client.js";
import { invalidArgument } from "../internal/invalid-argument.js";
import { errorResponse, jsonResponse, upstreamFailure } from "./error-response.js";

export type { CreateUploadTokenBody, UploadPolicy, UploadTokenResponse } from "@trove/schema";

/** What the route needs of a client: `createClient({ apiKey: privateKey, … })` is one. */
export interface UploadTokenMinter {
  uploadTokens: { create(policy?: CreateUploadTokenBody): Promise<UploadTokenResponse> };
}

type MaybePromise<T> = T | Promise<T>;

export type TokenRouteOptions = {
  /**
   * The policy of the token minted for this request: folder, types, size, `max_files`,
   * `expires_in`… (`client.uploadTokens.create()`'s body). It may read the request (your session
   * cookie, a JSON body naming the file). Throw a `Response` to answer with it instead.
   */
  policy: (request: Request) => MaybePromise<CreateUploadTokenBody>;
  /**
   * Whether this request may have a token at all (your login check), before `policy` runs; false
   * answers 403. Throw a `Response` (a 401 of your own, a redirect) to answer with it instead.
   */
  authorize?: (request: Request) => MaybePromise<boolean>;
  /**
   * Told of every failure the page gets a 5xx for (your logger): the page itself learns only
   * Trove's code and message. Default: `console.error`.
   */
  onError?: (error: unknown) => void;
} & (
  | { client: UploadTokenMinter; privateKey?: never; baseUrl?: never }
  | { privateKey: string; baseUrl: string; client?: never }
);

/** The route's answer: `{ token, expires_at, max_files, policy }` (UploadTokenResponse), as JSON. */
export type TokenRouteHandler = (request: Request) => Promise<Response>;

/**
 * `export const POST = createTokenRoute({ privateKey, baseUrl, policy: () => ({ folder: "uploads",
 * allowed_types: ["image/*"] }) })`. Only POST gets a token (a credential must not be fetched by a
 * prefetch, an `<img>` or a cache): any other method is 405. Every answer is `no-store`.
 */
export function createTokenRoute(options: TokenRouteOptions): TokenRouteHandler {
  const minter = options.client ?? privateKeyClient(options.privateKey, options.baseUrl);
  const report = options.onError ?? ((error: unknown) => console.error("Trove token route:", error));
  return async (request) => {
    if (request.method !== "POST") {
      return errorResponse(405, { message: "Ask for an upload token with POST" }, { allow: "POST" });
    }
    let policy: CreateUploadTokenBody;
    try {
      if (options.authorize && !(await options.authorize(request))) {
        return errorResponse(403, { message: "This request may not upload" });
      }
      policy = await options.policy(request);
    } catch (error) {
      if (error instanceof Response) return error;
      report(error);
      return errorResponse(500, { message: "" });
    }
    try {
      return jsonResponse(200, await minter.uploadTokens.create(policy));
    } catch (error) {
      report(error);
      return upstreamFailure(error);
    }
  };
}

function privateKeyClient(privateKey: string | undefined, baseUrl: string | undefined): UploadTokenMinter {
  if (!privateKey || keyKindOf(privateKey) !== "private" || !baseUrl) {
    // Said at start-up, not per request: a public key or a missing setting can never mint.
    throw invalidArgument(
      "createTokenRoute needs a private key (trove_sk_…) and baseUrl, or a client made with one",
    );
  }
  // A route handler runs on a server; edge runtimes (Workers, Vercel Edge) have no
  // `process.versions.node` and would read as a browser, so the guard is lifted there, and only
  // there: in a page (a `document`) the private key is still refused.
  const inPage = (globalThis as { document?: unknown }).document !== undefined;
  return createClient({ apiKey: privateKey, baseUrl, allowPrivateKeyInBrowser: !inPage });
}
