/**
 * Upload tokens: `trove_ut_<32 base62>`, minted by a private key for one workspace and an upload
 * policy, good for `max_files` files until `expires_at`. Stored like keys (SHA-256 hash and a
 * visible prefix; the plaintext is returned once), not signed: the file count must hold across
 * instances, and revoking the minting key must end its tokens at once.
 *
 *   mintUploadToken(db, { workspaceId, apiKeyId, body })  -> { token, expires_at, max_files, policy }
 *   findUploadToken(db, token)       -> what auth needs (one indexed query), or null
 *   spendUploadToken(tx, tokenId)    -> counts one file, inside the file row's transaction
 *                                       (multipart start: reserves it for the session)
 *   releaseUploadToken(tx, tokenId)  -> gives a reservation back (the session ended without a file)
 */
import { createHash } from "node:crypto";
import {
  type CreateUploadTokenBody,
  DEFAULT_UPLOAD_TOKEN_TTL_SECONDS,
  ERROR_CATALOGUE,
  type UploadPolicy,
  type UploadTokenResponse,
  uploadPolicySchema,
} from "@trove/schema";
import { HttpError } from "../errors/http-error.js";
import type { Prisma, PrismaClient } from "../generated/prisma/client.js";
import { randomString } from "../ids.js";
import { normalizePolicy } from "../uploads/upload-policy.js";

export const UPLOAD_TOKEN_TAG = "trove_ut_";
const TOKEN_PATTERN = /^trove_ut_[0-9A-Za-z]{32}$/;
const PREFIX_RANDOM_CHARS = 8;

export function isUploadTokenShaped(credential: string): boolean {
  return credential.startsWith(UPLOAD_TOKEN_TAG);
}

function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export interface MintInput {
  workspaceId: string;
  /** The private key that mints the token (revoking it revokes the token). */
  apiKeyId: string;
  body: CreateUploadTokenBody;
  now?: number;
}

export async function mintUploadToken(
  db: Pick<PrismaClient, "uploadToken">,
  input: MintInput,
): Promise<UploadTokenResponse> {
  const { expires_in, max_files, ...requested } = input.body;
  // Tokens are for browsers: remote fetches are opt-in, multipart opt-out; both written out.
  const policy = normalizePolicy({
    ...requested,
    allow_remote: requested.allow_remote ?? false,
    allow_multipart: requested.allow_multipart ?? true,
  });
  const maxFiles = max_files ?? 1;
  const expiresAt = new Date(
    (input.now ?? Date.now()) + (expires_in ?? DEFAULT_UPLOAD_TOKEN_TTL_SECONDS) * 1000,
  );
  const token = `${UPLOAD_TOKEN_TAG}${randomString(32)}`;
  await db.uploadToken.create({
    data: {
      workspaceId: input.workspaceId,
      apiKeyId: input.apiKeyId,
      hash: hashToken(token),
      prefix: token.slice(0, UPLOAD_TOKEN_TAG.length + PREFIX_RANDOM_CHARS),
      policy: policy as Prisma.InputJsonValue,
      maxFiles,
      expiresAt,
    },
  });
  return { token, expires_at: expiresAt.toISOString(), max_files: maxFiles, policy };
}

export interface FoundUploadToken {
  id: string;
  workspaceId: string;
  workspaceNo: string;
  apiKeyId: string;
  policy: UploadPolicy;
  expired: boolean;
  exhausted: boolean;
  /** The workspace's `embedded_metadata` setting as stored, or null. */
  embeddedMetadata: string | null;
}

interface TokenRow {
  id: string;
  workspaceId: string;
  workspaceNo: string;
  apiKeyId: string;
  policy: unknown;
  expired: boolean;
  exhausted: boolean;
  embeddedMetadata: string | null;
}

/**
 * The token with its workspace, if it exists, its minting key is neither revoked nor expired and
 * its workspace is not disabled (unique index on `hash`, two joins). Expiry is judged by the
 * database clock, as spending it is.
 */
export async function findUploadToken(
  db: Pick<PrismaClient, "$queryRaw">,
  token: string,
): Promise<FoundUploadToken | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const [row] = await db.$queryRaw<TokenRow[]>`
    SELECT t.id, t.workspace_id AS "workspaceId", w.workspace_no AS "workspaceNo",
      t.api_key_id AS "apiKeyId", t.policy, t.expires_at <= now() AS expired,
      t.used_files >= t.max_files AS exhausted, w.embedded_metadata AS "embeddedMetadata"
    FROM upload_tokens t
      JOIN workspaces w ON w.id = t.workspace_id
      JOIN api_keys k ON k.id = t.api_key_id
    WHERE t.hash = ${hashToken(token)} AND k.revoked_at IS NULL AND w.disabled_at IS NULL
      AND (k.expires_at IS NULL OR k.expires_at > now())`;
  if (!row) return null;
  return { ...row, policy: storedPolicy(row.policy) };
}

/** A policy read back from a JSON column; one that no longer parses admits nothing. */
export function storedPolicy(value: unknown): UploadPolicy {
  const parsed = uploadPolicySchema.safeParse(value);
  return parsed.success
    ? parsed.data
    : { allowed_types: ["none/none"], allow_remote: false, allow_multipart: false };
}

export function tokenExpired(): HttpError {
  return new HttpError(401, ERROR_CATALOGUE.TOKEN_EXPIRED.message, { errorCode: "TOKEN_EXPIRED" });
}

export function tokenExhausted(): HttpError {
  return new HttpError(403, ERROR_CATALOGUE.TOKEN_EXHAUSTED.message, { errorCode: "TOKEN_EXHAUSTED" });
}

/**
 * Counts one file against the token, in the transaction that inserts the file row: one
 * conditional update, so concurrent uploads on any number of instances never exceed
 * `max_files`. Throws (rolling the transaction back) when the token is used up or expired.
 */
export async function spendUploadToken(tx: Prisma.TransactionClient, tokenId: string): Promise<void> {
  const updated = await tx.$executeRaw`
    UPDATE upload_tokens SET used_files = used_files + 1
    WHERE id = ${tokenId}::uuid AND used_files < max_files AND expires_at > now()`;
  if (updated === 1) return;
  const [row] = await tx.$queryRaw<{ expired: boolean }[]>`
    SELECT expires_at <= now() AS expired FROM upload_tokens WHERE id = ${tokenId}::uuid`;
  throw row?.expired ? tokenExpired() : tokenExhausted();
}

/**
 * Gives back the count a multipart session reserved at start (spendUploadToken), when the session
 * ends without a file: abandoned, expired, or its content refused. Never below zero.
 */
export async function releaseUploadToken(tx: Prisma.TransactionClient, tokenId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE upload_tokens SET used_files = used_files - 1 WHERE id = ${tokenId}::uuid AND used_files > 0`;
}

export async function findUploadTokenPolicy(
  db: Pick<PrismaClient, "uploadToken">,
  tokenId: string,
): Promise<UploadPolicy | null> {
  const row = await db.uploadToken.findUnique({ where: { id: tokenId }, select: { policy: true } });
  return row ? storedPolicy(row.policy) : null;
}
