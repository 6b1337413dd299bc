/**
 * Development seeding, idempotent across restarts.
 *
 * - No TROVE_DEV_* keys and no workspace yet: create workspace "Development" with one public and
 *   one private key, returned in plaintext (the only time they can be shown).
 * - TROVE_DEV_PUBLIC_KEY / TROVE_DEV_PRIVATE_KEY: those exact keys exist afterwards, in the
 *   workspace that already holds one of them, else the oldest workspace, else a new one.
 * - TROVE_DEV_PRIVATE_KEY_2: a second workspace ("Development 2") holding that private key, for
 *   isolation tests.
 * A revoked development key stays revoked. A workspace created here has its webhook signing secret
 * returned in plaintext too (`trove-server webhooks secret` shows it again later).
 */
import type { ServerConfig } from "../config.js";
import { openSecret } from "../crypto/secret-box.js";
import type { PrismaClient, Workspace } from "../generated/prisma/client.js";
import { type ApiKeyType, createApiKey, hashApiKey } from "./api-keys.js";
import { createWorkspace, WEBHOOK_SECRET_PURPOSE } from "./workspaces.js";

export interface SeedResult {
  /** Workspace of the development keys (undefined when nothing was seeded or found). */
  workspace: Workspace | undefined;
  workspace2: Workspace | undefined;
  /** Keys created now, in plaintext (env-provided keys are listed too, since the caller knows them). */
  created: Array<{ type: ApiKeyType; key: string; workspaceNo: string }>;
  /** Whether the first development workspace was created by this call. */
  createdWorkspace: boolean;
  /** Webhook signing secrets of the workspaces created by this call, in plaintext. */
  webhookSecrets: Array<{ workspaceNo: string; secret: string }>;
}

async function ensureKey(
  prisma: PrismaClient,
  workspace: Workspace,
  type: ApiKeyType,
  key: string,
  created: SeedResult["created"],
): Promise<void> {
  const existing = await prisma.apiKey.findUnique({ where: { hash: hashApiKey(key) } });
  if (existing) {
    if (existing.type !== type)
      throw new Error(`Development ${type} key is already registered as a ${existing.type} key`);
    return;
  }
  await createApiKey(prisma, { workspaceId: workspace.id, type, key, name: `development ${type} key` });
  created.push({ type, key, workspaceNo: workspace.workspaceNo });
}

async function workspaceOfKey(prisma: PrismaClient, key: string | undefined): Promise<Workspace | undefined> {
  if (!key) return undefined;
  const record = await prisma.apiKey.findUnique({
    where: { hash: hashApiKey(key) },
    include: { workspace: true },
  });
  return record?.workspace;
}

export async function seedDevelopment(
  prisma: PrismaClient,
  config: Pick<ServerConfig, "devKeys" | "secretKey">,
): Promise<SeedResult> {
  const { publicKey, privateKey, privateKey2 } = config.devKeys;
  const result: SeedResult = {
    workspace: undefined,
    workspace2: undefined,
    created: [],
    createdWorkspace: false,
    webhookSecrets: [],
  };
  const newWorkspace = async (name: string) => {
    const workspace = await createWorkspace(prisma, { name, secretKey: config.secretKey });
    const secret = openSecret(config.secretKey, WEBHOOK_SECRET_PURPOSE, workspace.webhookSecret);
    result.webhookSecrets.push({ workspaceNo: workspace.workspaceNo, secret });
    return workspace;
  };

  if (publicKey || privateKey) {
    let workspace =
      (await workspaceOfKey(prisma, privateKey)) ??
      (await workspaceOfKey(prisma, publicKey)) ??
      (await prisma.workspace.findFirst({
        where: privateKey2 ? { apiKeys: { none: { hash: hashApiKey(privateKey2) } } } : {},
        orderBy: { createdAt: "asc" },
      })) ??
      undefined;
    if (!workspace) {
      workspace = await newWorkspace("Development");
      result.createdWorkspace = true;
    }
    if (publicKey) await ensureKey(prisma, workspace, "public", publicKey, result.created);
    if (privateKey) await ensureKey(prisma, workspace, "private", privateKey, result.created);
    result.workspace = workspace;
  } else if ((await prisma.workspace.count()) === 0) {
    const workspace = await newWorkspace("Development");
    result.createdWorkspace = true;
    for (const type of ["public", "private"] as const) {
      const { key } = await createApiKey(prisma, {
        workspaceId: workspace.id,
        type,
        name: `development ${type} key`,
      });
      result.created.push({ type, key, workspaceNo: workspace.workspaceNo });
    }
    result.workspace = workspace;
  } else {
    // Already seeded: report the development workspace (the oldest) without keys.
    result.workspace = (await prisma.workspace.findFirst({ orderBy: { createdAt: "asc" } })) ?? undefined;
  }

  if (privateKey2) {
    let workspace2 = await workspaceOfKey(prisma, privateKey2);
    if (!workspace2) {
      workspace2 = await newWorkspace("Development 2");
      await ensureKey(prisma, workspace2, "private", privateKey2, result.created);
    }
    if (result.workspace && workspace2.id === result.workspace.id) {
      throw new Error(
        "TROVE_DEV_PRIVATE_KEY_2 must belong to a different workspace than TROVE_DEV_PRIVATE_KEY",
      );
    }
    result.workspace2 = workspace2;
  }
  return result;
}
