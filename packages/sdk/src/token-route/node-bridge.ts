/**
 * Node's `http` request and response as the Web `Request` and `Response` the token route speaks:
 * the one bridge the Express and Fastify adapters share. Types are structural (what Node's
 * IncomingMessage and ServerResponse have), so the SDK depends on neither framework.
 */
import { Readable } from "node:stream";

/** What the bridge reads of Node's IncomingMessage (Express's `req` and Fastify's `request.raw` are one). */
export interface NodeRequestLike extends AsyncIterable<unknown> {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** A TLS socket says `encrypted: true`: read without naming node:tls types. */
  socket?: object | null;
}

/** What the bridge writes of Node's ServerResponse (Express's `res`). */
export interface NodeResponseLike {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(chunk?: Uint8Array): unknown;
}

/**
 * The Web Request of a Node request. `read.body`: bytes a framework already read (Fastify's
 * buffer, a body parser's result); otherwise the request stream itself, read only if the route's
 * `policy` reads the body. `read.url`: the path as the app saw it, where a framework keeps it
 * apart (Express's `originalUrl` inside a router).
 */
export function webRequest(
  req: NodeRequestLike,
  read: { body?: Uint8Array | undefined; url?: string | undefined } = {},
): Request {
  const { body } = read;
  const method = req.method ?? "GET";
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  // The host as the client sent it: a route's policy may read the URL (a query naming a folder).
  const scheme =
    (req.socket as { encrypted?: unknown } | null | undefined)?.encrypted === true ? "https" : "http";
  const url = new URL(read.url ?? req.url ?? "/", `${scheme}://${headers.get("host") ?? "localhost"}`);
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers,
    ...(hasBody
      ? body === undefined
        ? { body: Readable.toWeb(Readable.from(req)) as ReadableStream<Uint8Array>, duplex: "half" }
        : { body }
      : {}),
  } as RequestInit);
}

/** The Web Response's status, headers and body onto Node's response. */
export async function sendNodeResponse(res: NodeResponseLike, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  res.end(new Uint8Array(await response.arrayBuffer()));
}
