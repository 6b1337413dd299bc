/**
 * What the multipart service needs, built once per app by the composition root (src/services.ts)
 * with `createMultipartDeps(...)`, and read by the routes as `app.multipartDeps`.
 */
import type { FastifyBaseLogger } from "fastify";
import type { ServerConfig } from "../config.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { StorageDriver } from "../storage/driver.js";
import { type MultipartStore, multipartStoreFor } from "../storage/multipart/index.js";
import type { UploadDeps } from "../uploads/upload-deps.js";
import type { UploadPolicy } from "../uploads/upload-policy.js";
import type { MultipartConfig } from "./multipart-config.js";
import { PartUrlSigner } from "./part-url.js";

export interface MultipartDeps {
  db: PrismaClient;
  storage: StorageDriver;
  store: MultipartStore;
  signer: PartUrlSigner;
  config: MultipartConfig;
  /** For registering the assembled file (src/uploads/register-file.ts). */
  upload: UploadDeps;
  log: Pick<FastifyBaseLogger, "warn" | "info">;
  /** Policy of public keys without their own (src/multipart/session-policy.ts). */
  publicKeyPolicy?: UploadPolicy | undefined;
}

/** What the multipart dependencies are built from. */
export interface MultipartDepsInput {
  db: PrismaClient;
  storage: StorageDriver;
  config: Pick<ServerConfig, "multipart" | "secretKey" | "publicUrl" | "publicKeyPolicy">;
  upload: UploadDeps;
  log: Pick<FastifyBaseLogger, "warn" | "info">;
}

/**
 * The multipart dependencies. Throws when direct mode is configured on a driver without presigned
 * part uploads (only s3 has them), so a misconfigured server fails at start.
 */
export function createMultipartDeps({ db, storage, config, upload, log }: MultipartDepsInput): MultipartDeps {
  const store = multipartStoreFor(storage);
  if (config.multipart.mode === "direct" && !store.supportsDirect) {
    throw new Error(`Multipart mode "direct" needs the s3 storage driver, not "${storage.kind}"`);
  }
  return {
    db,
    storage,
    store,
    signer: new PartUrlSigner(config.secretKey, config.multipart.gatewayUrl ?? config.publicUrl),
    config: config.multipart,
    upload,
    log,
    publicKeyPolicy: config.publicKeyPolicy,
  };
}
