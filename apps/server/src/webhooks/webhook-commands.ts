/**
 * `trove-server webhooks ...`: the workspace signing secret, endpoints, and recent deliveries.
 *
 *   webhooks secret --workspace <no>                      print the current signing secret
 *   webhooks rotate --workspace <no> [--grace 24h]        new secret; the old one signs too until the grace ends
 *
 * Secrets go to stdout alone (so `$(trove-server webhooks secret -w 1234)` works); notes go to stderr.
 */
import { parse as parseDuration } from "@lukeed/ms";
import { type Command, InvalidArgumentError } from "commander";
import { CliError } from "../cli-error.js";
import type { ServerConfig } from "../config.js";
import type { PrismaClient, Workspace } from "../generated/prisma/client.js";
import { findWorkspaceByNo } from "../keys/workspaces.js";
import { currentWebhookSecret, previousSecretInGrace, rotateWebhookSecret } from "./workspace-secrets.js";

export interface WebhookCommandContext {
  io: { out(text: string): void; err(text: string): void };
  /** Runs `fn` with a migrated database and the configuration, closing the database afterwards. */
  withDatabase<T>(fn: (db: { prisma: PrismaClient; config: ServerConfig }) => Promise<T>): Promise<T>;
}

/** Longest rotation grace: beyond it the old secret would hardly be "previous" any more. */
const MAX_GRACE_MS = 365 * 24 * 3600_000;

function parseGrace(value: string): number {
  // A bare 0 has no unit, which the duration parser does not take; it means "no grace".
  const ms = /^0+$/.test(value.trim()) ? 0 : parseDuration(value.trim());
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) {
    throw new InvalidArgumentError("must be a duration such as 0, 30m, 24h or 7d");
  }
  if (ms > MAX_GRACE_MS) throw new InvalidArgumentError("must be at most 365d");
  return Math.round(ms);
}

async function workspaceOf(prisma: PrismaClient, workspaceNo: string): Promise<Workspace> {
  const workspace = await findWorkspaceByNo(prisma, workspaceNo);
  if (!workspace) throw new CliError(`No workspace ${workspaceNo}`);
  return workspace;
}

export function registerWebhookCommands(program: Command, context: WebhookCommandContext): void {
  const { io } = context;
  const webhooks = program.command("webhooks").description("webhook signing secret, endpoints, deliveries");

  webhooks
    .command("secret")
    .description("print the workspace's webhook signing secret (receivers verify with it)")
    .requiredOption("-w, --workspace <workspace_no>", "workspace number")
    .action(async (options: { workspace: string }) => {
      await context.withDatabase(async ({ prisma, config }) => {
        const workspace = await workspaceOf(prisma, options.workspace);
        const secret = await currentWebhookSecret(prisma, config.secretKey, workspace.id);
        if (!secret) throw new CliError(`Workspace ${workspace.workspaceNo} has no readable webhook secret`);
        io.out(secret);
        const previous = previousSecretInGrace(workspace, config.secretKey);
        if (previous) {
          io.err(`The previous secret also signs deliveries until ${previous.expiresAt.toISOString()}.`);
        }
      });
    });

  webhooks
    .command("rotate")
    .description("make a new signing secret; the old one keeps signing during the grace period")
    .requiredOption("-w, --workspace <workspace_no>", "workspace number")
    .option(
      "--grace <duration>",
      "how long the old secret stays valid (0 for not at all)",
      parseGrace,
      86_400_000,
    )
    .action(async (options: { workspace: string; grace: number }) => {
      await context.withDatabase(async ({ prisma, config }) => {
        const workspace = await workspaceOf(prisma, options.workspace);
        const rotated = await rotateWebhookSecret(prisma, {
          secretKey: config.secretKey,
          workspaceId: workspace.id,
          graceMs: options.grace,
        });
        if (!rotated) throw new CliError(`No workspace ${options.workspace}`);
        io.out(rotated.secret);
        io.err(
          rotated.previousExpiresAt
            ? `Rotated. Deliveries carry both signatures until ${rotated.previousExpiresAt.toISOString()}; switch receivers to the new secret before then.`
            : "Rotated. The previous secret no longer signs anything.",
        );
      });
    });
}
