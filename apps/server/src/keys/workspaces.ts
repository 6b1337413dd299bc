/** Workspaces: creation with a unique short `workspace_no` and a sealed webhook secret. */
import { sealSecret } from "../crypto/secret-box.js";
import { isUniqueViolation } from "../db/prisma-errors.js";
import type { PrismaClient, Workspace } from "../generated/prisma/client.js";
import { randomShortNo } from "../ids.js";
import { generateWebhookSecret } from "../webhooks/signing.js";

export const WEBHOOK_SECRET_PURPOSE = "webhook-secret";

export async function createWorkspace(
  prisma: PrismaClient,
  input: { name: string; secretKey: Buffer; workspaceNo?: string },
): Promise<Workspace> {
  const webhookSecret = sealSecret(input.secretKey, WEBHOOK_SECRET_PURPOSE, generateWebhookSecret());
  for (let attempt = 0; ; attempt++) {
    try {
      return await prisma.workspace.create({
        data: { name: input.name, workspaceNo: input.workspaceNo ?? randomShortNo(), webhookSecret },
      });
    } catch (error) {
      if (input.workspaceNo || attempt >= 5 || !isUniqueViolation(error)) throw error;
    }
  }
}

export async function findWorkspaceByNo(
  prisma: PrismaClient,
  workspaceNo: string,
): Promise<Workspace | null> {
  return prisma.workspace.findUnique({ where: { workspaceNo } });
}
