/**
 * `registerFile(deps, input)`: turns bytes already in storage into a file of the workspace. The
 * one place where direct, remote-URL and multipart uploads become `files` rows; see ./index.ts
 * for the contract and the decisions. Each step is a file of its own, in this order:
 *
 *   applyUploadPolicy      ./apply-upload-policy.ts     the policy and the transform rules
 *   sniffUpload            ./sniff-upload.ts            the type from the bytes, the policy's types
 *   stripUploadMetadata    ./strip-upload-metadata.ts   an image's personal metadata, losslessly
 *   processUploadedImage   ./process-uploaded-image.ts  a raster image's header, a store-time transform
 *   probeUploadedVideo     ./probe-uploaded-video.ts    a stored video's frame, duration and codecs
 *   storedFileName         ./stored-name.ts             the name the file is stored under
 *   commitUpload           ./commit-upload.ts           the row, its folder, token count, webhook, event
 *
 * What stays here is the order and the cleanup: every object this call wrote is removed when
 * registration fails, unless the failure may have come after the row committed.
 */
import { HttpError } from "../errors/index.js";
import { randomString } from "../ids.js";
import { putBuffer } from "../storage/object-keys.js";
import { applyUploadPolicy } from "./apply-upload-policy.js";
import { commitUpload } from "./commit-upload.js";
import { probeUploadedVideo } from "./probe-uploaded-video.js";
import { processUploadedImage } from "./process-uploaded-image.js";
import type { RegisteredFile, RegisterFileInput } from "./register-file-input.js";
import { sniffUpload } from "./sniff-upload.js";
import { storedFileName } from "./stored-name.js";
import { stripUploadMetadata } from "./strip-upload-metadata.js";
import type { UploadDeps } from "./upload-deps.js";
import { toUploadError } from "./upload-errors.js";
import { uuidV7 } from "./uuid-v7.js";

const RANDOM_SUFFIX_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
const RANDOM_SUFFIX_LENGTH = 8;

export async function registerFile(deps: UploadDeps, request: RegisterFileInput): Promise<RegisteredFile> {
  const { storage } = deps;
  let input = request;
  const fileId = input.fileId ?? uuidV7();
  /** Keys this call wrote: removed again if registration fails. */
  const written: string[] = [];
  let replacedOriginal = false;

  const sourceStored = input.sourceStored ?? true;
  if (!sourceStored && !input.bytes) throw new Error("registerFile: sourceStored false needs bytes");

  let registered: RegisteredFile;
  let inserting = false;
  try {
    input = await applyUploadPolicy(deps.db, input);
    const sniffed = await sniffUpload(storage, input);
    input = await stripUploadMetadata(deps, input, sniffed);
    const described = await processUploadedImage(deps, input, fileId, sniffed, {
      written,
      onOriginalReplaced: () => {
        replacedOriginal = true;
      },
    });
    if (!sourceStored && described.key === input.storageKey && !replacedOriginal) {
      // The file keeps the bytes as they came (no transform took effect): store them now, under
      // the key the receiver made for them and wrote nothing at.
      await putBuffer(storage, input.storageKey, (input.bytes as () => Buffer)(), described.mimeType, {
        newKey: true,
      });
    }
    await probeUploadedVideo(deps, described);
    const suffix = input.randomPrefix
      ? randomString(RANDOM_SUFFIX_LENGTH, RANDOM_SUFFIX_ALPHABET)
      : undefined;
    const name = storedFileName(input.fileName, described.extension, suffix ? { suffix } : {});
    inserting = true;
    registered = await commitUpload(deps, input, fileId, name, described);
  } catch (error) {
    // Once the insert has begun, only our own refusal (a 4xx thrown inside the transaction, which
    // rolls it back) proves that no row names these objects. Any other failure, a dropped
    // connection above all, may have come after the commit: deleting would leave a file without
    // its bytes. The orphan sweeper removes them later if no row names them.
    const refused = error instanceof HttpError && error.status < 500;
    if (inserting && !refused) throw toUploadError(error);
    const cleanup = [...written];
    if (input.deleteSourceOnError !== false || replacedOriginal || !sourceStored)
      cleanup.push(input.storageKey);
    for (const key of new Set(cleanup)) {
      await storage.delete(key).catch((cause: unknown) => {
        deps.log?.warn({ err: cause, key }, "upload failed and one of its objects could not be removed");
      });
    }
    throw toUploadError(error);
  }

  // A transformed upload was stored under a new key: the original bytes are not needed any more.
  if (registered.file.storageKey !== input.storageKey && !replacedOriginal && sourceStored) {
    await storage.delete(input.storageKey).catch((cause: unknown) => {
      deps.log?.warn({ err: cause, key: input.storageKey }, "original of a transformed upload not removed");
    });
  }
  deps.metrics?.upload(
    input.uploadSource,
    registered.isDuplicate ? "duplicate" : "stored",
    Number(registered.file.size),
  );
  return registered;
}
