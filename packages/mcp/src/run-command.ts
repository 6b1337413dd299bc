import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { createMcpHttpHandler } from "./http.js";
import { parseOrigins } from "./origin-check.js";
import { ConfigurationError, runStdio } from "./stdio.js";

const USAGE = `Usage: trove-mcp                 MCP over stdio (TROVE_BASE_URL, TROVE_API_KEY, TROVE_MCP_ROOTS)
       trove-mcp --http [--port 3333] [--host 127.0.0.1] [--allowed-origin <origin>]...
                                   MCP over Streamable HTTP at /mcp (TROVE_BASE_URL; each request's
                                   Authorization: Bearer <key or upload token>; browser origins from
                                   --allowed-origin and TROVE_MCP_ALLOWED_ORIGINS)
Both: TROVE_ASSETS_URL when the delivery host is not <TROVE_BASE_URL>/assets.`;

/**
 * `trove-mcp`: stdio by default; `--http` serves Streamable HTTP at `/mcp`. Resolves the exit
 * code for a configuration error; otherwise keeps running until its transport ends.
 */
export async function runCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (error) {
    process.stderr.write(`trove-mcp: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (args.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    if (!args.values.http) {
      await runStdio(env);
      return 0;
    }
    return await serveHttp(args.values, env);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    process.stderr.write(`trove-mcp: ${error.message}\n`);
    return 2;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      http: { type: "boolean", default: false },
      port: { type: "string", default: "3333" },
      host: { type: "string", default: "127.0.0.1" },
      "allowed-origin": { type: "string", multiple: true, default: [] },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
}

async function serveHttp(
  values: { port: string; host: string; "allowed-origin": string[] },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const baseUrl = env.TROVE_BASE_URL?.trim();
  if (!baseUrl)
    throw new ConfigurationError("TROVE_BASE_URL is not set (the Trove API, e.g. https://api.example.com)");
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigurationError(`--port ${values.port} is not a port`);
  const handler = createMcpHttpHandler({
    baseUrl,
    assetsUrl: env.TROVE_ASSETS_URL?.trim() || undefined,
    allowedOrigins: [...parseOrigins(env.TROVE_MCP_ALLOWED_ORIGINS), ...values["allowed-origin"]],
  });
  const server = createServer((req, res) => {
    if (new URL(req.url ?? "/", "http://localhost").pathname !== "/mcp") {
      res.statusCode = 404;
      res.end();
      return;
    }
    void handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, values.host, resolve);
  });
  const address = server.address();
  const where = typeof address === "object" && address ? `${address.address}:${address.port}` : values.host;
  process.stderr.write(`trove-mcp listening on http://${where}/mcp\n`);
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
  return 0;
}
