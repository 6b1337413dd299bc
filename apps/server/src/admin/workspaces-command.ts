/**
 * `trove-server workspaces ...`: what the admin API does with workspaces, from the server's shell.
 *
 *   trove-server workspaces create <name> [--number <workspace_no>]   prints the workspace number
 *   trove-server workspaces list | get <no> | rename <no> <name> | disable <no> | enable <no>
 *   trove-server workspaces delete <no> [--force]                  refused while it holds files
 *   trove-server workspaces embedded-metadata <no> strip|strip-location|keep|default
 *
 * A disable here reaches running servers like a revoke by `keys revoke`: within TROVE_KEY_CACHE_MS.
 * A forced delete disables the workspace and leaves the rest to a running server's job runner
 * (./delete-workspace.ts). Registered by src/cli.ts, which provides the database and its errors.
 */
import { EMBEDDED_METADATA_MODES, embeddedMetadataModeSchema } from "@trove/schema";
import type { Command } from "commander";
import { fileCount } from "../files/file-counts.js";
import type { PrismaClient, Workspace } from "../generated/prisma/client.js";
import { createWorkspace, findWorkspaceByNo } from "../keys/workspaces.js";
import { deleteWorkspace, WorkspaceNotEmptyError } from "./delete-workspace.js";

export interface WorkspacesCommandContext {
  out(text: string): void;
  /** Runs `fn` with the migrated database and the server's secret key. */
  withDatabase(fn: (db: PrismaClient, secretKey: Buffer) => Promise<void>): Promise<void>;
  /** The CLI's error for a refusal the user can fix (printed without a stack, exit code 1). */
  fail(message: string): Error;
}

function line(workspace: Workspace, files: number): string {
  const state = workspace.disabledAt ? `disabled ${workspace.disabledAt.toISOString()}` : "active";
  return `${workspace.workspaceNo.padEnd(34)}${state.padEnd(34)}${String(files).padEnd(10)}${workspace.name}`;
}

export function addWorkspacesCommand(program: Command, context: WorkspacesCommandContext): void {
  const { out, fail } = context;
  const inWorkspace = (workspaceNo: string, fn: (db: PrismaClient, workspace: Workspace) => Promise<void>) =>
    context.withDatabase(async (db) => {
      const workspace = await findWorkspaceByNo(db, workspaceNo);
      if (!workspace) throw fail(`No workspace ${workspaceNo}`);
      await fn(db, workspace);
    });
  const setDisabled = (disabled: boolean) => async (workspaceNo: string) =>
    inWorkspace(workspaceNo, async (db, workspace) => {
      await db.workspace.update({
        where: { id: workspace.id },
        data: { disabledAt: disabled ? (workspace.disabledAt ?? new Date()) : null },
      });
      out(`Workspace ${workspaceNo} ${disabled ? "disabled: its keys get 401, its files 404" : "enabled"}.`);
    });

  const workspaces = program.command("workspaces").description("manage workspaces");

  workspaces
    .command("create")
    .description("create a workspace and print its number")
    .argument("<name>")
    .option("--number <workspace_no>", "its number (lowercase letters and digits); default: random")
    .action(async (name: string, options: { number?: string }) => {
      if (options.number !== undefined && !/^[a-z0-9]{3,32}$/.test(options.number)) {
        throw fail("--number must be 3 to 32 lowercase letters and digits");
      }
      await context.withDatabase(async (db, secretKey) => {
        if (options.number && (await findWorkspaceByNo(db, options.number)))
          throw fail(`Workspace ${options.number} exists`);
        const workspace = await createWorkspace(db, {
          name,
          secretKey,
          ...(options.number ? { workspaceNo: options.number } : {}),
        });
        out(workspace.workspaceNo);
      });
    });

  workspaces
    .command("list")
    .description("list workspaces")
    .action(async () => {
      await context.withDatabase(async (db) => {
        out(`${"WORKSPACE".padEnd(34)}${"STATE".padEnd(34)}${"FILES".padEnd(10)}NAME`);
        for (const workspace of await db.workspace.findMany({ orderBy: { createdAt: "asc" } })) {
          out(line(workspace, await fileCount(db, workspace.id)));
        }
      });
    });

  workspaces
    .command("get")
    .description("show one workspace")
    .argument("<workspace_no>")
    .action((workspaceNo: string) =>
      inWorkspace(workspaceNo, async (db, workspace) =>
        out(line(workspace, await fileCount(db, workspace.id))),
      ),
    );

  workspaces
    .command("rename")
    .argument("<workspace_no>")
    .argument("<name>")
    .action((workspaceNo: string, name: string) =>
      inWorkspace(workspaceNo, async (db, workspace) => {
        if (name.trim() === "" || name.length > 255) throw fail("The name must be 1 to 255 characters");
        await db.workspace.update({ where: { id: workspace.id }, data: { name: name.trim() } });
        out(`Workspace ${workspaceNo} renamed to ${name.trim()}.`);
      }),
    );

  workspaces
    .command("embedded-metadata")
    .description("what uploads' embedded image metadata becomes, for every key; default: the default rule")
    .argument("<workspace_no>")
    .argument("<mode>", `${EMBEDDED_METADATA_MODES.join("|")}|default`)
    .action((workspaceNo: string, mode: string) =>
      inWorkspace(workspaceNo, async (db, workspace) => {
        const parsed = mode === "default" ? null : embeddedMetadataModeSchema.safeParse(mode).data;
        if (parsed === undefined)
          throw fail(`The mode must be one of ${EMBEDDED_METADATA_MODES.join(", ")} or default`);
        await db.workspace.update({ where: { id: workspace.id }, data: { embeddedMetadata: parsed } });
        out(
          `Workspace ${workspaceNo}: embedded metadata ${parsed ?? "by the default rule (public keys strip, private keys keep)"}.`,
        );
      }),
    );

  workspaces.command("disable").argument("<workspace_no>").action(setDisabled(true));
  workspaces.command("enable").argument("<workspace_no>").action(setDisabled(false));

  workspaces
    .command("delete")
    .description("delete a workspace; --force when it holds files (they are removed in the background)")
    .argument("<workspace_no>")
    .option("--force", "delete it with its files")
    .action((workspaceNo: string, options: { force?: boolean }) =>
      inWorkspace(workspaceNo, async (db, workspace) => {
        try {
          const result = await deleteWorkspace(db, workspace, { force: options.force === true });
          out(
            result.status === "deleted"
              ? `Deleted workspace ${workspaceNo}.`
              : `Workspace ${workspaceNo} disabled; its ${result.fileCount} file(s) are removed by a running server's workers.`,
          );
        } catch (error) {
          if (error instanceof WorkspaceNotEmptyError) throw fail(`${error.message} (--force)`);
          throw error;
        }
      }),
    );
}
