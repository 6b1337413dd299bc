#!/usr/bin/env node
/**
 * `trove-server` command line.
 *
 *   trove-server [start]                                   migrate, then listen (default command)
 *   trove-server migrate                                   apply pending migrations and exit
 *   trove-server keys create --workspace <no> --type public|private [--name <name>]
 *   trove-server keys revoke <prefix-or-key>
 *   trove-server keys list --workspace <no>
 *
 * Configuration comes from the environment (see src/config.ts).
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Command, InvalidArgumentError, Option } from "commander";
import { ConfigError, loadConfig, type ServerConfig } from "./config.js";
import { openDatabase } from "./db/database.js";
import { ApiKeyLookupError, createApiKey, listApiKeys, revokeApiKey } from "./keys/api-keys.js";
import { findWorkspaceByNo } from "./keys/workspaces.js";
import { startServer } from "./server.js";

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
}

const defaultIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
};

class CliError extends Error {
  override name = "CliError";
}

async function withDatabase<T>(
  config: ServerConfig,
  fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>,
) {
  const database = await openDatabase(config.database);
  try {
    await database.migrate();
    return await fn(database);
  } finally {
    await database.close();
  }
}

function parseType(value: string): "public" | "private" {
  if (value !== "public" && value !== "private") throw new InvalidArgumentError("must be public or private");
  return value;
}

export function createProgram(io: CliIo = defaultIo): Command {
  const program = new Command("trove-server")
    .description("Trove media server")
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .exitOverride();

  program
    .command("start", { isDefault: true })
    .description("apply pending migrations, then serve the API")
    .action(async () => {
      await startServer(loadConfig(io.env), { print: io.out });
    });

  program
    .command("migrate")
    .description("apply pending database migrations and exit")
    .action(async () => {
      const config = loadConfig(io.env);
      const database = await openDatabase(config.database);
      try {
        const result = await database.migrate();
        for (const name of result.applied) io.out(`applied ${name}`);
        for (const name of result.checksumMismatches)
          io.err(`warning: applied migration ${name} was modified since`);
        io.out(
          result.applied.length === 0
            ? `Database is up to date (${result.alreadyApplied.length} migrations).`
            : `Applied ${result.applied.length} migration(s).`,
        );
      } finally {
        await database.close();
      }
    });

  const keys = program.command("keys").description("manage API keys");

  keys
    .command("create")
    .description("create an API key and print it (shown only once)")
    .requiredOption("-w, --workspace <workspace_no>", "workspace number")
    .addOption(new Option("-t, --type <type>", "key type").argParser(parseType).makeOptionMandatory())
    .option("-n, --name <name>", "a label for the key")
    .action(async (options: { workspace: string; type: "public" | "private"; name?: string }) => {
      await withDatabase(loadConfig(io.env), async ({ prisma }) => {
        const workspace = await findWorkspaceByNo(prisma, options.workspace);
        if (!workspace) throw new CliError(`No workspace ${options.workspace}`);
        const { key, record } = await createApiKey(prisma, {
          workspaceId: workspace.id,
          type: options.type,
          ...(options.name ? { name: options.name } : {}),
        });
        io.out(key);
        io.err(
          `Created ${record.type} key ${record.prefix}… for workspace ${workspace.workspaceNo}. It is shown only once.`,
        );
      });
    });

  keys
    .command("revoke")
    .description("revoke a key by its prefix (as listed) or in full")
    .argument("<prefix-or-key>")
    .action(async (prefixOrKey: string) => {
      await withDatabase(loadConfig(io.env), async ({ prisma }) => {
        const record = await revokeApiKey(prisma, prefixOrKey);
        io.out(`Revoked ${record.type} key ${record.prefix}…`);
      });
    });

  keys
    .command("list")
    .description("list the keys of a workspace (prefixes only)")
    .requiredOption("-w, --workspace <workspace_no>", "workspace number")
    .action(async (options: { workspace: string }) => {
      await withDatabase(loadConfig(io.env), async ({ prisma }) => {
        const workspace = await findWorkspaceByNo(prisma, options.workspace);
        if (!workspace) throw new CliError(`No workspace ${options.workspace}`);
        const rows = await listApiKeys(prisma, workspace.id);
        io.out(["PREFIX               TYPE     STATUS   CREATED                   LAST USED"].join(""));
        for (const key of rows) {
          io.out(
            [
              `${key.prefix}…`.padEnd(21),
              key.type.padEnd(9),
              (key.revokedAt ? "revoked" : "active").padEnd(9),
              key.createdAt.toISOString().padEnd(26),
              key.lastUsedAt?.toISOString() ?? "-",
            ].join(""),
          );
        }
      });
    });

  return program;
}

/** Runs the CLI; resolves to the process exit code (0 while a started server keeps running). */
export async function runCli(argv: string[], io: CliIo = defaultIo): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (typeof code === "string" && code.startsWith("commander.")) {
      return code === "commander.helpDisplayed" || code === "commander.version" ? 0 : 2;
    }
    if (error instanceof ConfigError || error instanceof CliError || error instanceof ApiKeyLookupError) {
      io.err(`trove-server: ${error.message}`);
      return 1;
    }
    io.err(`trove-server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  }
}

/** True when this module is the program (run as `trove-server`, through the bin symlink or not). */
function isMainModule(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMainModule()) {
  runCli(process.argv.slice(2)).then((code) => {
    if (code !== 0) process.exit(code);
  });
}
