#!/usr/bin/env node
/**
 * `trove-server` command line.
 *
 *   trove-server [start]                                   migrate, then listen (default command)
 *   trove-server migrate                                   apply pending migrations and exit
 *   trove-server keys create --workspace <no> --type public|private [--name <name>]
 *     public keys may carry an upload policy (src/uploads/upload-policy.ts): --public (same as
 *     --type public) [--max-size 20MB] [--types image/*,video/mp4] [--folder avatars/]
 *     [--folder-match exact|prefix] [--no-remote] [--no-multipart] [--no-transforms]
 *     [--expires <ISO date-time>] (any key: 401 KEY_EXPIRED afterwards)
 *   trove-server keys revoke <prefix-or-key>
 *   trove-server keys list --workspace <no>
 *   trove-server workspaces create|list|get|rename|disable|enable|delete [--force]   (src/admin/workspaces-command.ts)
 *   trove-server counts check|repair                       recount files per workspace and folder
 *   trove-server transforms set|rm|list|strict --workspace <no> ...   (src/transforms/transforms-command.ts)
 *   trove-server webhooks secret|rotate|add|list|remove|deliveries ...   (src/webhooks/webhook-commands.ts)
 *
 * Configuration comes from the environment (every setting: src/config/settings.ts; the one read:
 * `loadConfig(io.env)`, src/config.ts). In a checkout of the repository,
 * TROVE_DATA_DIR defaults to the repository's `.trove` wherever the command runs (the folder
 * `npm start` uses; src/trove-checkout.ts), and from its root `npm run trove-server -- <args>`
 * runs this program.
 *
 * On the embedded database, the server and every command hold the data directory's lock
 * (src/db/data-dir-lock.ts): a command beside a running server exits 1 with a message naming
 * the server's pid and what to do, instead of writing where the server never looks.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type UploadPolicy, uploadPolicySchema } from "@trove/schema";
import { Command, InvalidArgumentError, Option } from "commander";
import { addWorkspacesCommand } from "./admin/workspaces-command.js";
import { parseByteSize } from "./byte-size.js";
import { CliError } from "./cli-error.js";
import { ConfigError, loadConfig, type ServerConfig } from "./config.js";
import { DataDirLockedError } from "./db/data-dir-lock.js";
import { openDatabase } from "./db/database.js";
import { recountFiles } from "./files/file-counts.js";
import { ApiKeyLookupError, createApiKey, listApiKeys, revokeApiKey } from "./keys/api-keys.js";
import { findWorkspaceByNo } from "./keys/workspaces.js";
import { startServer } from "./server.js";
import { addTransformsCommand } from "./transforms/transforms-command.js";
import { withCheckoutDataDir } from "./trove-checkout.js";
import { normalizePolicy } from "./uploads/upload-policy.js";
import { registerWebhookCommands } from "./webhooks/webhook-commands.js";

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

interface KeyCreateOptions {
  workspace: string;
  type?: "public" | "private";
  public?: boolean;
  name?: string;
  maxSize?: number;
  types?: string;
  folder?: string;
  folderMatch?: "exact" | "prefix";
  remote: boolean;
  multipart: boolean;
  transforms: boolean;
  expires?: Date;
}

function parseExpiry(value: string): Date {
  const time = Date.parse(value);
  if (Number.isNaN(time))
    throw new InvalidArgumentError("must be an ISO date-time, e.g. 2030-01-01T00:00:00Z");
  if (time <= Date.now()) throw new InvalidArgumentError("must lie in the future");
  return new Date(time);
}

function parseSizeArgument(value: string): number {
  try {
    return parseByteSize(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** The policy the options describe, checked and cleaned as the API would; undefined when none. */
function policyOfOptions(options: KeyCreateOptions): UploadPolicy | undefined {
  const candidate = {
    max_file_size: options.maxSize,
    allowed_types: options.types?.split(",").map((type) => type.trim().toLowerCase()),
    folder: options.folder,
    folder_match: options.folderMatch,
    allow_remote: options.remote ? undefined : false,
    allow_multipart: options.multipart ? undefined : false,
    allow_transforms: options.transforms ? undefined : false,
  };
  const set = Object.fromEntries(Object.entries(candidate).filter(([, value]) => value !== undefined));
  if (Object.keys(set).length === 0) return undefined;
  const parsed = uploadPolicySchema.safeParse(set);
  if (!parsed.success) {
    throw new CliError(
      `Invalid policy: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  }
  try {
    return normalizePolicy(parsed.data);
  } catch (error) {
    throw new CliError(`Invalid policy: ${(error as Error).message}`);
  }
}

export function createProgram(given: CliIo = defaultIo): Command {
  const io: CliIo = { ...given, env: withCheckoutDataDir(given.env) };
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
    .addOption(new Option("-t, --type <type>", "key type").argParser(parseType).conflicts("public"))
    .option("--public", "a public key (same as --type public)")
    .option("-n, --name <name>", "a label for the key")
    .option("--max-size <size>", "public keys: largest file (bytes, 20MB, 1GiB)", parseSizeArgument)
    .option("--types <types>", "public keys: sniffed types allowed, comma-separated (image/*,video/mp4)")
    .option("--folder <path>", "public keys: folder uploads must land in")
    .addOption(
      new Option("--folder-match <match>", "public keys: how --folder is matched").choices([
        "exact",
        "prefix",
      ]),
    )
    .option("--no-remote", "public keys: refuse remote-URL uploads")
    .option("--no-multipart", "public keys: refuse multipart uploads")
    .option("--no-transforms", "public keys: refuse store-time transforms (403 TRANSFORM_NOT_ALLOWED)")
    .option("--expires <date-time>", "when the key stops working (ISO 8601)", parseExpiry)
    .action(async (options: KeyCreateOptions) => {
      const type = options.type ?? (options.public ? "public" : undefined);
      if (!type) throw new CliError("Give --type public|private (or --public)");
      const policy = policyOfOptions(options);
      if (policy && type !== "public") throw new CliError("Only public keys carry an upload policy");
      await withDatabase(loadConfig(io.env), async ({ prisma }) => {
        const workspace = await findWorkspaceByNo(prisma, options.workspace);
        if (!workspace) throw new CliError(`No workspace ${options.workspace}`);
        const { key, record } = await createApiKey(prisma, {
          workspaceId: workspace.id,
          type,
          ...(options.name ? { name: options.name } : {}),
          ...(policy ? { policy } : {}),
          ...(options.expires ? { expiresAt: options.expires } : {}),
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

  const counts = program
    .command("counts")
    .description("the file counts behind list totals and folder totals (kept by the database)");
  for (const [name, fix] of [
    ["check", false],
    ["repair", true],
  ] as const) {
    counts
      .command(name)
      .description(
        fix
          ? "recount every workspace and folder from the files and store the result"
          : "recount and report counts that differ from the files (exit 1 if any); changes nothing",
      )
      .action(async () => {
        await withDatabase(loadConfig(io.env), async ({ prisma }) => {
          const { workspacesWrong, foldersWrong } = await recountFiles(prisma, { fix });
          const wrong = `${workspacesWrong} workspace and ${foldersWrong} folder counts differed from the files`;
          io.out(fix ? `Recounted: ${wrong}; all are exact now.` : `Checked: ${wrong}.`);
          if (!fix && workspacesWrong + foldersWrong > 0) {
            throw new CliError("counts differ from the files: run `trove-server counts repair`");
          }
        });
      });
  }

  addWorkspacesCommand(program, {
    out: io.out,
    fail: (message) => new CliError(message),
    withDatabase: (fn) => {
      const config = loadConfig(io.env);
      return withDatabase(config, ({ prisma }) => fn(prisma, config.secretKey));
    },
  });

  addTransformsCommand(program, {
    out: io.out,
    err: io.err,
    fail: (message) => new CliError(message),
    withWorkspace: (workspaceNo, fn) =>
      withDatabase(loadConfig(io.env), async ({ prisma }) => {
        const workspace = await findWorkspaceByNo(prisma, workspaceNo);
        if (!workspace) throw new CliError(`No workspace ${workspaceNo}`);
        await fn(prisma, workspace);
      }),
  });

  registerWebhookCommands(program, {
    io,
    withDatabase: (fn) => {
      const config = loadConfig(io.env);
      return withDatabase(config, ({ prisma }) => fn({ prisma, config }));
    },
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
    if (
      error instanceof ConfigError ||
      error instanceof CliError ||
      error instanceof ApiKeyLookupError ||
      error instanceof DataDirLockedError
    ) {
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
