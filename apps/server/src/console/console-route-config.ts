/**
 * The route config of every /console route: no key (a session is not needed to fetch the pages
 * or to sign in), the API's `{ success: false, error, message, errorCode }` envelope for errors
 * (the upload group's), and no CORS headers (the console and its session API are same-origin
 * only; @fastify/cors skips a route whose config says `cors: false`).
 */
declare module "fastify" {
  interface FastifyContextConfig {
    /** `false`: @fastify/cors adds no headers to this route's answers. */
    cors?: false;
  }
}

export const CONSOLE_ROUTE_CONFIG = { auth: "none", errorGroup: "upload", cors: false } as const;
