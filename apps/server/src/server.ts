/**
 * Running the server: block the libvips codecs Trove never uses, migrate, build the app, listen,
 * print where it is and the development keys (generated ones in full, the only time they are
 * shown; ones set in the environment by prefix, since the operator has them and the output often
 * ends up in a log store), and shut down cleanly on SIGTERM/SIGINT (stop accepting, finish
 * in-flight requests, then Prisma disconnect and PGlite close through the app's onClose hooks).
 * The banner's command hint runs as printed: from a checkout's root, through its root script.
 * Tracing (src/tracing/start-tracing.ts) starts before the app is built when `config.tracing` names
 * a collector (OTEL_EXPORTER_OTLP_ENDPOINT), and is flushed and stopped after the app has closed.
 */
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.js";
import type { ServerConfig } from "./config.js";
import { consoleBannerLine } from "./console/console-pages.js";
import { apiKeyPrefix } from "./keys/api-keys.js";
import type { SeedResult } from "./keys/seed.js";
import { blockUnusedCodecs } from "./media/block-unused-codecs.js";
import { startTracing } from "./tracing/start-tracing.js";
import { operatorCommand } from "./trove-checkout.js";

export interface StartedServer {
  app: FastifyInstance;
  /** The address it listens on (`http://127.0.0.1:3000`). */
  address: string;
  close(): Promise<void>;
}

export function startupBanner(config: ServerConfig, address: string, seed: SeedResult | undefined): string {
  const lines = [
    "",
    "  Trove server is running",
    `    listening   ${address}`,
    `    API         ${config.publicUrl}/api/v1`,
    `    assets      ${config.assetsUrl}/{workspace_no}/{path}`,
    `    openapi     ${config.publicUrl}/openapi.json`,
    `    data        ${config.dataDir}`,
    `    database    ${config.database.kind === "pglite" ? `embedded PGlite (${config.database.dataDir ?? "memory"})` : "PostgreSQL (DATABASE_URL)"}`,
    `    storage     ${config.storageDir}`,
    "",
    consoleBannerLine(config),
  ];
  if (seed?.workspace) {
    lines.push(
      "",
      `  Development workspace: ${seed.workspace.name} (workspace_no ${seed.workspace.workspaceNo})`,
    );
    if (seed.workspace2)
      lines.push(
        `  Second workspace:      ${seed.workspace2.name} (workspace_no ${seed.workspace2.workspaceNo})`,
      );
    if (seed.created.length > 0) {
      lines.push("  API keys created now; they are shown only this once, store them:");
      const fromEnvironment = new Set(Object.values(config.devKeys));
      for (const key of seed.created) {
        const shown = fromEnvironment.has(key.key)
          ? `${apiKeyPrefix(key.key)}... (set in the environment)`
          : key.key;
        lines.push(
          `    ${key.type === "public" ? "public key " : "private key"}  ${shown}   (workspace ${key.workspaceNo})`,
        );
      }
    }
    for (const { workspaceNo, secret } of seed.webhookSecrets) {
      lines.push(`  Webhook signing secret of workspace ${workspaceNo}: ${secret}`);
    }
    if (seed.created.length === 0) {
      lines.push(
        "  Development keys already exist (shown at first start). New key:",
        `    ${operatorCommand(`keys create --workspace ${seed.workspace.workspaceNo} --type private`)}`,
      );
    }
  }
  lines.push("");
  return lines.join("\n");
}

export async function startServer(
  config: ServerConfig,
  options: { print?: (text: string) => void; handleSignals?: boolean } = {},
): Promise<StartedServer> {
  const print = options.print ?? ((text: string) => process.stdout.write(`${text}\n`));
  // Process-wide: only the raster codecs stay usable, before anything can reach libvips. The
  // media pipeline applies it too (for embedders and tests); here it is in force from the start.
  blockUnusedCodecs();
  // Before the app is built: its plugins install their span wrappers only while tracing is on.
  const tracing = await startTracing(config.tracing);
  let app: FastifyInstance;
  let address: string;
  try {
    app = await buildApp({ config });
    try {
      address = await app.listen({ port: config.port, host: config.host });
    } catch (error) {
      await app.close().catch(() => {});
      throw error;
    }
  } catch (error) {
    await tracing?.shutdown().catch(() => {});
    throw error;
  }
  // A command that finds the embedded database locked names where its holder listens.
  app.database.dataLock?.update({ address });
  print(startupBanner(config, address, app.seedResult));

  let closing: Promise<void> | undefined;
  const close = () => {
    // The spans of the last requests are exported before the process ends.
    closing ??= app.close().then(async () => {
      await tracing?.shutdown().catch(() => {});
    });
    return closing;
  };
  if (options.handleSignals ?? true) {
    const onSignal = (signal: NodeJS.Signals) => {
      app.log.info({ signal }, "shutting down");
      const force = setTimeout(() => process.exit(1), 10_000);
      force.unref();
      close().then(
        () => process.exit(0),
        (error) => {
          app.log.error({ err: error }, "error during shutdown");
          process.exit(1);
        },
      );
    };
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
  }
  return { app, address, close };
}
