/** What the multipart service needs from the app, built once per app (`multipartDepsOf(app)`). */
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { StorageDriver } from "../storage/driver.js";
import { type MultipartStore, multipartStoreFor } from "../storage/multipart/index.js";
import { type UploadDeps, uploadDepsOf } from "../uploads/upload-deps.js";
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

const cache = new WeakMap<FastifyInstance, MultipartDeps>();

/**
 * The multipart dependencies of an app. Throws when direct mode is configured on a driver
 * without presigned part uploads (only s3 has them).
 */
export function multipartDepsOf(app: FastifyInstance): MultipartDeps {
  const cached = cache.get(app);
  if (cached) return cached;
  const { config } = app;
  const store = multipartStoreFor(app.storage);
  if (config.multipart.mode === "direct" && !store.supportsDirect) {
    throw new Error(`Multipart mode "direct" needs the s3 storage driver, not "${app.storage.kind}"`);
  }
  const deps: MultipartDeps = {
    db: app.db,
    storage: app.storage,
    store,
    signer: new PartUrlSigner(config.secretKey, config.multipart.gatewayUrl ?? config.publicUrl),
    config: config.multipart,
    upload: uploadDepsOf(app),
    log: app.log,
    publicKeyPolicy: config.publicKeyPolicy,
  };
  cache.set(app, deps);
  return deps;
}
