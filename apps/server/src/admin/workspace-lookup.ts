/** The workspace an admin route names by `workspace_no`, or its 404. */
import { HttpError } from "../errors/http-error.js";
import type { PrismaClient, Workspace } from "../generated/prisma/client.js";
import { findWorkspaceByNo } from "../keys/workspaces.js";

export const WORKSPACE_NOT_FOUND = "Workspace not found";

export async function workspaceOr404(db: PrismaClient, workspaceNo: string): Promise<Workspace> {
  const workspace = await findWorkspaceByNo(db, workspaceNo);
  if (!workspace) throw new HttpError(404, WORKSPACE_NOT_FOUND);
  return workspace;
}
