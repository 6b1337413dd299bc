/**
 * A workspace's webhook signing secrets: the current one, and during a rotation's grace period the
 * one before it. Both are stored sealed with TROVE_SECRET_KEY (../crypto/secret-box.ts).
 *
 *   await currentWebhookSecret(db, secretKey, workspaceId)          // "whsec_..." or null
 *   await signingSecrets(db, secretKey, workspaceId, now?)          // [current, previous while in grace]
 *   await rotateWebhookSecret(db, { secretKey, workspaceId, graceMs }) // the new secret and the grace's end
 *
 * Rotation keeps the old secret valid for `graceMs` so that receivers can be switched over without
 * rejecting a single delivery: every delivery signed in that window carries one `v1,` signature per
 * secret (Standard Webhooks verifiers accept a header when any signature matches). Rotating again
 * during a grace drops the oldest secret at once: only the two latest are ever valid.
 */
import { isSealed, openSecret, sealSecret } from "../crypto/secret-box.js";
import type { PrismaClient, Workspace } from "../generated/prisma/client.js";
import { WEBHOOK_SECRET_PURPOSE } from "../keys/workspaces.js";
import { generateWebhookSecret } from "./signing.js";

type WorkspaceDb = Pick<PrismaClient, "workspace">;
type SecretColumns = Pick<
  Workspace,
  "webhookSecret" | "previousWebhookSecret" | "previousWebhookSecretExpiresAt"
>;

/** Plaintext of a stored secret; rows written before secrets were sealed (or by tests) hold plaintext. */
function openStoredSecret(secretKey: Buffer, stored: string | null): string | null {
  if (!stored) return null;
  if (isSealed(stored as unknown)) return openSecret(secretKey, WEBHOOK_SECRET_PURPOSE, stored);
  return stored.startsWith("whsec_") ? stored : null;
}

function findSecrets(db: WorkspaceDb, workspaceId: string): Promise<SecretColumns | null> {
  return db.workspace.findUnique({
    where: { id: workspaceId },
    select: { webhookSecret: true, previousWebhookSecret: true, previousWebhookSecretExpiresAt: true },
  });
}

/** The secret receivers should verify with now, or null for an unknown workspace. */
export async function currentWebhookSecret(
  db: WorkspaceDb,
  secretKey: Buffer,
  workspaceId: string,
): Promise<string | null> {
  const row = await findSecrets(db, workspaceId);
  return row ? openStoredSecret(secretKey, row.webhookSecret) : null;
}

/** The previous secret and when it stops being used, if a rotation's grace is running. */
export function previousSecretInGrace(
  row: SecretColumns,
  secretKey: Buffer,
  now: Date = new Date(),
): { secret: string; expiresAt: Date } | null {
  const expiresAt = row.previousWebhookSecretExpiresAt;
  if (!expiresAt || expiresAt.getTime() <= now.getTime()) return null;
  const secret = openStoredSecret(secretKey, row.previousWebhookSecret);
  return secret ? { secret, expiresAt } : null;
}

/** Every secret a delivery made now is signed with: the current one first. Empty: unknown workspace. */
export async function signingSecrets(
  db: WorkspaceDb,
  secretKey: Buffer,
  workspaceId: string,
  now: Date = new Date(),
): Promise<string[]> {
  const row = await findSecrets(db, workspaceId);
  if (!row) return [];
  const current = openStoredSecret(secretKey, row.webhookSecret);
  const previous = previousSecretInGrace(row, secretKey, now);
  return [...(current ? [current] : []), ...(previous ? [previous.secret] : [])];
}

export interface RotatedSecret {
  secret: string;
  /** When the replaced secret stops signing; null when `graceMs` was 0. */
  previousExpiresAt: Date | null;
}

/**
 * Replaces the secret, keeping the old one valid for `graceMs` (0: it stops at once). One
 * statement, so two rotations at once cannot both keep the same old secret. Null: no such workspace.
 */
export async function rotateWebhookSecret(
  db: Pick<PrismaClient, "$executeRaw">,
  input: { secretKey: Buffer; workspaceId: string; graceMs: number; now?: Date },
): Promise<RotatedSecret | null> {
  const secret = generateWebhookSecret();
  const sealed = sealSecret(input.secretKey, WEBHOOK_SECRET_PURPOSE, secret);
  const previousExpiresAt =
    input.graceMs > 0 ? new Date((input.now ?? new Date()).getTime() + input.graceMs) : null;
  // In an UPDATE, the right-hand sides read the row as it was: webhook_secret is the old secret.
  const count = await db.$executeRaw`
    UPDATE workspaces
       SET previous_webhook_secret = CASE WHEN ${previousExpiresAt}::timestamptz IS NULL THEN NULL
                                          ELSE webhook_secret END,
           previous_webhook_secret_expires_at = ${previousExpiresAt}::timestamptz,
           webhook_secret = ${sealed},
           updated_at = now()
     WHERE id = ${input.workspaceId}::uuid`;
  return count === 1 ? { secret, previousExpiresAt } : null;
}
