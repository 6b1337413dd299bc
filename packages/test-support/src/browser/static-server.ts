/**
 * A loopback HTTP server for test pages: fixed in-memory files and/or a directory (a Vite build).
 * It listens on 127.0.0.1 on an ephemeral port; the page's origin is `url`.
 */
import { readFile, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".ico": "image/x-icon",
};

export interface StaticFile {
  body: string | Uint8Array;
  type: string;
}

export interface StaticServer {
  /** `http://127.0.0.1:<port>`, the pages' origin. */
  url: string;
  close(): Promise<void>;
}

export async function startStaticServer(options: {
  files?: Record<string, StaticFile>;
  /** Served for paths not in `files`; `/` is `index.html`. */
  directory?: string;
}): Promise<StaticServer> {
  const files = options.files ?? {};
  const lookup = async (pathname: string): Promise<StaticFile | undefined> => {
    const fixed = files[pathname];
    if (fixed) return fixed;
    if (!options.directory) return undefined;
    const relative = normalize(decodeURIComponent(pathname === "/" ? "/index.html" : pathname));
    const path = join(options.directory, relative);
    if (!path.startsWith(options.directory + sep)) return undefined;
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    return { body: await readFile(path), type: TYPES[extname(path)] ?? "application/octet-stream" };
  };

  const server: Server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? "/", "http://127.0.0.1");
    lookup(pathname).then(
      (file) => {
        if (!file) {
          response.writeHead(404, { "content-type": "text/plain" }).end("not found");
          return;
        }
        response.writeHead(200, { "content-type": file.type, "cache-control": "no-store" }).end(file.body);
      },
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
