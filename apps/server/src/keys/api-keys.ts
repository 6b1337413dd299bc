/**
 * API keys: `trove_pk_<32 base62>` (public: upload only) and `trove_sk_<32 base62>` (private).
 * Only the SHA-256 hash and a visible prefix (`trove_sk_` + 8 characters) are stored; the
 * plaintext is returned once by `createApiKey` and never again.
 */
import { hash } from "node:crypto";
import { KEY_PREFIXES, keyKindOf } from "@trove/schema";
import type { ApiKey, Prisma, PrismaClient } from "../generated/prisma/client.js";
import { randomString } from "../ids.js";
import { normalizePolicy, type UploadPolicy } from "../uploads/upload-policy.js";

export type ApiKeyType = "public" | "private";

const TYPE_TAG: Record<ApiKeyType, string> = { public: "pk", private: "sk" };
const KEY_PATTERN = /^trove_(pk|sk)_[0-9A-Za-z]{32}$/;
/** Characters of the random part kept in the visible prefix. */
const PREFIX_RANDOM_CHARS = 8;

export function generateApiKey(type: ApiKeyType): string {
  return `trove_${TYPE_TAG[type]}_${randomString(32)}`;
}

/** Whether a string has the shape of a generated key (dev keys from the environment may not). */
export function isWellFormedApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** SHA-256, hex. The one-shot `hash` (Node 20.12): a Hash object per request cost 2% of a list's CPU. */
export function hashApiKey(key: string): string {
  return hash("sha256", key, "hex");
}

/** The visible prefix stored next to the hash: `trove_sk_AbCd1234` (or the first 17 characters). */
export function apiKeyPrefix(key: string): string {
  const match = /^(trove_(?:pk|sk)_)(.*)$/.exec(key);
  if (match) return match[1] + (match[2] ?? "").slice(0, PREFIX_RANDOM_CHARS);
  return key.slice(0, Math.min(17, Math.max(1, key.length - 8)));
}

/** A key as it may arrive in a header: printable ASCII without spaces, 16 to 256 characters. */
export function isPlausibleApiKey(key: string): boolean {
  return /^[\x21-\x7e]{16,256}$/.test(key);
}

export interface CreateApiKeyInput {
  workspaceId: string;
  type: ApiKeyType;
  name?: string;
  /** Use this exact key (development keys from the environment); otherwise a new one is generated. */
  key?: string;
  /** Upload policy of a public key (src/uploads/upload-policy.ts); refused on private keys. */
  policy?: UploadPolicy;
  /** After this the key gets 401 KEY_EXPIRED; unset: it does not expire. */
  expiresAt?: Date;
}

export async function createApiKey(
  prisma: PrismaClient,
  input: CreateApiKeyInput,
): Promise<{ key: string; record: ApiKey }> {
  const key = input.key ?? generateApiKey(input.type);
  if (!isPlausibleApiKey(key))
    throw new Error("API keys must be 16 to 256 printable characters without spaces");
  // Clients tell a key's kind by its prefix (keyKindOf); a given key must agree with its type.
  if (keyKindOf(key) !== input.type)
    throw new Error(`A ${input.type} key must start with ${KEY_PREFIXES[input.type]}`);
  if (input.policy && input.type !== "public") throw new Error("Only public keys carry an upload policy");
  const record = await prisma.apiKey.create({
    data: {
      ...(input.policy ? { policy: normalizePolicy(input.policy) as Prisma.InputJsonValue } : {}),
      workspaceId: input.workspaceId,
      type: input.type,
      name: input.name ?? null,
      expiresAt: input.expiresAt ?? null,
      prefix: apiKeyPrefix(key),
      hash: hashApiKey(key),
    },
  });
  return { key, record };
}

/** Whether a key has passed its expiry at `now`. */
export function isApiKeyExpired(key: Pick<ActiveApiKey, "expiresAt">, now: number = Date.now()): boolean {
  return key.expiresAt !== null && key.expiresAt.getTime() <= now;
}

/** What authenticating a request needs of its key. */
export interface ActiveApiKey {
  id: string;
  type: ApiKeyType;
  workspaceId: string;
  workspaceNo: string;
  /** The key's upload policy as stored (JSON), or null. */
  policy: unknown;
  /** When the key stops working, or null. Checked on every request, cached or not. */
  expiresAt: Date | null;
  /** The workspace's `embedded_metadata` setting as stored, or null (src/uploads/embedded-metadata-rule.ts). */
  embeddedMetadata?: string | null;
}

/**
 * The key with this SHA-256 hash, with its workspace's number, if it exists, is not revoked and
 * its workspace is not disabled. An expired key is returned with its `expiresAt`: the caller
 * refuses it with a 401 of its own (KEY_EXPIRED), which a cached entry gets too.
 * Authentication runs this behind a one-second cache (src/keys/active-key-cache.ts), so it is one
 * raw statement (the unique index on `hash`, one join): Prisma's query compiler and result mapping
 * would cost more CPU than the query itself.
 */
export async function findActiveApiKey(
  prisma: Pick<PrismaClient, "$queryRaw">,
  keyHash: string,
): Promise<ActiveApiKey | null> {
  const [record] = await prisma.$queryRaw<ActiveApiKey[]>`
    SELECT k.id, k.type::text AS type, k.workspace_id AS "workspaceId", w.workspace_no AS "workspaceNo", k.policy,
      k.expires_at AS "expiresAt", w.embedded_metadata AS "embeddedMetadata"
    FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
    WHERE k.hash = ${keyHash} AND k.revoked_at IS NULL AND w.disabled_at IS NULL`;
  return record ?? null;
}

export class ApiKeyLookupError extends Error {
  override name = "ApiKeyLookupError";
}

/**
 * Revokes a key given in full or by its visible prefix. A prefix matching several active keys is
 * refused (give the full key). Returns the revoked record; revoking twice is a no-op.
 */
export async function revokeApiKey(prisma: PrismaClient, prefixOrKey: string): Promise<ApiKey> {
  const byHash = await prisma.apiKey.findUnique({ where: { hash: hashApiKey(prefixOrKey) } });
  let target = byHash;
  if (!target) {
    const candidates = await prisma.apiKey.findMany({ where: { prefix: prefixOrKey } });
    const active = candidates.filter((k) => !k.revokedAt);
    if (candidates.length === 0) throw new ApiKeyLookupError(`No API key with prefix ${prefixOrKey}`);
    if (active.length > 1) {
      throw new ApiKeyLookupError(`Prefix ${prefixOrKey} matches ${active.length} keys; give the full key`);
    }
    target = active[0] ?? candidates[0] ?? null;
  }
  if (!target) throw new ApiKeyLookupError(`No API key ${prefixOrKey}`);
  return markRevoked(prisma, target);
}

/** Revokes the key `keyId` of a workspace (the admin API); null when the workspace has no such key. */
export async function revokeApiKeyById(
  prisma: PrismaClient,
  workspaceId: string,
  keyId: string,
): Promise<ApiKey | null> {
  const target = await prisma.apiKey.findFirst({ where: { id: keyId, workspaceId } });
  return target ? markRevoked(prisma, target) : null;
}

async function markRevoked(prisma: PrismaClient, key: ApiKey): Promise<ApiKey> {
  if (key.revokedAt) return key;
  return prisma.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
}

export async function listApiKeys(prisma: PrismaClient, workspaceId: string): Promise<ApiKey[]> {
  return prisma.apiKey.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" } });
}
