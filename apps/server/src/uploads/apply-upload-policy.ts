/**
 * The rules an upload is judged by before any of its bytes are read: not empty, the credential's
 * policy (size, fixed fields, folder, a temporary file's lifetime; ./upload-policy.ts, ./file-expiry.ts) and whether a store-time transform may
 * run at all (./store-time-transform.ts). The policy's type rule needs the sniffed content and is
 * judged in ./sniff-upload.ts.
 */
import type { PrismaClient } from "../generated/prisma/client.js";
import { fileExpiresIn } from "./file-expiry.js";
import type { RegisterFileInput } from "./register-file-input.js";
import { checkStoreTimeTransform } from "./store-time-transform.js";
import { emptyFile } from "./upload-errors.js";
import { applyFixedFields, checkPolicySize, resolvePolicyFolder } from "./upload-policy.js";

/** The input as the policy rewrites it (fixed fields, folder), with its transform checked. */
export async function applyUploadPolicy(
  db: PrismaClient,
  request: RegisterFileInput,
): Promise<RegisterFileInput> {
  let input = request;
  // Here, where direct, remote and multipart uploads meet, so no path stores an empty file.
  if (input.size === 0) throw emptyFile();
  if (input.policy) {
    const policy = input.policy;
    checkPolicySize(policy, input.size);
    input = {
      ...applyFixedFields(policy, input),
      folder: resolvePolicyFolder(policy, input.folder),
      expiresIn: fileExpiresIn(policy, input.expiresIn),
    };
  }
  const transform = await checkStoreTimeTransform(db, {
    workspaceId: input.workspaceId,
    transform: input.transform,
    credential: input.credential ?? "private",
    policy: input.policy,
  });
  return { ...input, transform };
}
