/**
 * `trove-server transforms ...`: a workspace's named transforms and strict mode.
 *
 *   trove-server transforms set --workspace <no> <name> <transform>   create or replace t_<name>
 *   trove-server transforms rm --workspace <no> <name>
 *   trove-server transforms list --workspace <no>                      one `t_<name> <transform>` a line
 *   trove-server transforms strict --workspace <no> on|off
 *
 * Registered by src/cli.ts, which provides the database, the workspace lookup and its error type.
 */
import { type Command, InvalidArgumentError } from "commander";
import type { PrismaClient, Workspace } from "../generated/prisma/client.js";
import {
  listNamedTransforms,
  NamedTransformError,
  removeNamedTransform,
  setNamedTransform,
  setStrictTransforms,
} from "./named-transforms.js";

export interface TransformsCommandContext {
  out(text: string): void;
  err(text: string): void;
  /** Runs `fn` with the migrated database and the workspace numbered `workspaceNo`, or fails. */
  withWorkspace(
    workspaceNo: string,
    fn: (db: PrismaClient, workspace: Workspace) => Promise<void>,
  ): Promise<void>;
  /** The CLI's error for a refusal the user can fix (printed without a stack, exit code 1). */
  fail(message: string): Error;
}

const STRICT_RULE = "the delivery host renders only named transforms (t_<name>) and signed URLs";

function parseSwitch(value: string): boolean {
  if (value === "on") return true;
  if (value === "off") return false;
  throw new InvalidArgumentError("must be on or off");
}

export function addTransformsCommand(program: Command, context: TransformsCommandContext): void {
  const { out, err, fail } = context;
  /** NamedTransformError is the user's to fix: it becomes the CLI's error, not a stack trace. */
  const inWorkspace = async (
    workspaceNo: string,
    fn: (db: PrismaClient, workspace: Workspace) => Promise<void>,
  ) => {
    try {
      await context.withWorkspace(workspaceNo, fn);
    } catch (error) {
      throw error instanceof NamedTransformError ? fail(error.message) : error;
    }
  };

  const transforms = program.command("transforms").description("manage named transforms and strict mode");

  transforms
    .command("set")
    .description("define t_<name> as a transform (replaces an existing definition)")
    .requiredOption("-w, --workspace <workspace_no>", "workspace number")
    .argument("<name>", "1 to 64 of a-z, 0-9, _ and - (a leading t_ is accepted)")
    .argument("<transform>", "what it stands for, e.g. w_400,h_300,c_fill,f_auto")
    .action(async (name: string, transform: string, options: { workspace: string }) => {
      await inWorkspace(options.workspace, async (db, workspace) => {
        const row = await setNamedTransform(db, workspace.id, name, transform);
        out(`t_${row.name} ${row.transform}`);
      });
    });

  transforms
    .command("rm")
    .description("remove t_<name>; URLs that use it get a 400 afterwards")
    .requiredOption("-w, --workspace <workspace_no>", "workspace number")
    .argument("<name>")
    .action(async (name: string, options: { workspace: string }) => {
      await inWorkspace(options.workspace, async (db, workspace) => {
        await removeNamedTransform(db, workspace.id, name);
        err(`Removed ${name.startsWith("t_") ? name : `t_${name}`} from workspace ${workspace.workspaceNo}.`);
      });
    });

  transforms
    .command("list")
    .description("list the named transforms of a workspace, and its strict mode")
    .requiredOption("-w, --workspace <workspace_no>", "workspace number")
    .action(async (options: { workspace: string }) => {
      await inWorkspace(options.workspace, async (db, workspace) => {
        for (const row of await listNamedTransforms(db, workspace.id)) out(`t_${row.name} ${row.transform}`);
        err(`Strict mode is ${workspace.strictTransforms ? `on: ${STRICT_RULE}` : "off"}.`);
      });
    });

  transforms
    .command("strict")
    .description("switch strict mode on or off")
    .requiredOption("-w, --workspace <workspace_no>", "workspace number")
    .argument("<on|off>", "on: only named transforms and signed URLs are rendered", parseSwitch)
    .action(async (strict: boolean, options: { workspace: string }) => {
      await inWorkspace(options.workspace, async (db, workspace) => {
        await setStrictTransforms(db, workspace.id, strict);
        out(
          `Strict mode ${strict ? `on for workspace ${workspace.workspaceNo}: ${STRICT_RULE}` : `off for workspace ${workspace.workspaceNo}`}.`,
        );
      });
    });
}
