/**
 * `trove-server webhooks ...`: the workspace signing secret, endpoints, and recent deliveries.
 *
 *   webhooks secret --workspace <no>                      print the current signing secret
 *   webhooks rotate --workspace <no> [--grace 24h]        new secret; the old one signs too until the grace ends
 *   webhooks add --workspace <no> --url <url> [--events file.uploaded,folder.deleted | *]
 *   webhooks list --workspace <no>                        endpoints: id, url, event types
 *   webhooks remove <endpoint-id> --workspace <no>        remove it and its deliveries not started yet
 *   webhooks deliveries --workspace <no> [--endpoint <id>] [--limit 50]
 *                                                         recent deliveries: event, endpoint, status, attempts,
 *                                                         last error (`receiver answered HTTP 503`), next attempt
 *
 * Secrets go to stdout alone (so `$(trove-server webhooks secret -w 1234)` works); notes go to stderr.
 */
import { parse as parseDuration } from "@lukeed/ms";
import { type Command, InvalidArgumentError } from "commander";
import { CliError } from "../cli-error.js";
import type { ServerConfig } from "../config.js";
import type { PrismaClient, Workspace } from "../generated/prisma/client.js";
import { findWorkspaceByNo } from "../keys/workspaces.js";
import { isRemoteFetchError } from "../network/remote-fetch-error.js";
import { listDeliveries } from "./deliveries.js";
import { addEndpoint, EndpointEventTypesError, listEndpoints, removeEndpoint } from "./endpoints.js";
import { currentWebhookSecret, previousSecretInGrace, rotateWebhookSecret } from "./workspace-secrets.js";

export interface WebhookCommandContext {
  io: { out(text: string): void; err(text: string): void };
  /** Runs `fn` with a migrated database and the configuration, closing the database afterwards. */
  withDatabase<T>(fn: (db: { prisma: PrismaClient; config: ServerConfig }) => Promise<T>): Promise<T>;
}

/** Longest rotation grace: beyond it the old secret would hardly be "previous" any more. */
const MAX_GRACE_MS = 365 * 24 * 3600_000;

function parseLimit(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new InvalidArgumentError("must be a whole number from 1 to 1000");
  }
  return limit;
}

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

  webhooks
    .command("add")
    .description("register an endpoint that receives the workspace's events")
    .requiredOption("-w, --workspace <workspace_no>", "workspace number")
    .requiredOption("--url <url>", "where events are POSTed (http or https)")
    .option("--events <types>", "comma-separated event types, or * for all", "*")
    .action(async (options: { workspace: string; url: string; events: string }) => {
      await context.withDatabase(async ({ prisma, config }) => {
        const workspace = await workspaceOf(prisma, options.workspace);
        let endpoint: Awaited<ReturnType<typeof addEndpoint>>;
        try {
          endpoint = await addEndpoint(prisma, {
            workspaceId: workspace.id,
            url: options.url,
            eventTypes: options.events.split(","),
            trustedRanges: config.trustedRanges,
          });
        } catch (error) {
          if (isRemoteFetchError(error) || error instanceof EndpointEventTypesError) {
            throw new CliError(error.message);
          }
          throw error;
        }
        io.out(endpoint.id);
        io.err(`Endpoint added: ${endpoint.url} receives ${endpoint.eventTypes.join(", ")}.`);
      });
    });

  webhooks
    .command("list")
    .description("list the workspace's endpoints")
    .requiredOption("-w, --workspace <workspace_no>", "workspace number")
    .action(async (options: { workspace: string }) => {
      await context.withDatabase(async ({ prisma }) => {
        const workspace = await workspaceOf(prisma, options.workspace);
        io.out(`${"ID".padEnd(38)}${"EVENTS".padEnd(40)}URL`);
        for (const endpoint of await listEndpoints(prisma, workspace.id)) {
          io.out(`${endpoint.id.padEnd(38)}${endpoint.eventTypes.join(",").padEnd(40)}${endpoint.url}`);
        }
      });
    });

  webhooks
    .command("remove")
    .description("remove an endpoint (deliveries not started yet are dropped)")
    .argument("<endpoint-id>")
    .requiredOption("-w, --workspace <workspace_no>", "workspace number")
    .action(async (endpointId: string, options: { workspace: string }) => {
      await context.withDatabase(async ({ prisma }) => {
        const workspace = await workspaceOf(prisma, options.workspace);
        if (!(await removeEndpoint(prisma, workspace.id, endpointId))) {
          throw new CliError(`No endpoint ${endpointId} in workspace ${workspace.workspaceNo}`);
        }
        io.out(`Removed endpoint ${endpointId}`);
      });
    });

  webhooks
    .command("deliveries")
    .description("recent deliveries, newest first: status, attempts, last error, next attempt")
    .requiredOption("-w, --workspace <workspace_no>", "workspace number")
    .option("--endpoint <id>", "only the deliveries to this endpoint")
    .option("--limit <n>", "how many (1 to 1000)", parseLimit, 50)
    .action(async (options: { workspace: string; endpoint?: string; limit: number }) => {
      await context.withDatabase(async ({ prisma, config }) => {
        const workspace = await workspaceOf(prisma, options.workspace);
        const rows = await listDeliveries(prisma, {
          workspaceId: workspace.id,
          limit: options.limit,
          maxAttempts: config.webhooks.maxAttempts,
          ...(options.endpoint === undefined ? {} : { endpointId: options.endpoint }),
        });
        io.out(
          `${"CREATED".padEnd(26)}${"EVENT".padEnd(16)}${"ENDPOINT".padEnd(38)}${"STATUS".padEnd(11)}${"ATTEMPTS".padEnd(10)}${"NEXT ATTEMPT".padEnd(26)}LAST ERROR`,
        );
        for (const row of rows) {
          io.out(
            [
              row.createdAt.toISOString().padEnd(26),
              row.eventType.padEnd(16),
              (row.endpointId ?? "webhook_url").padEnd(38),
              row.status.padEnd(11),
              `${row.attempts}/${row.maxAttempts}`.padEnd(10),
              (row.nextAttemptAt?.toISOString() ?? "-").padEnd(26),
              row.lastError ?? "-",
            ].join(""),
          );
        }
      });
    });
}
