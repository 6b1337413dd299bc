/**
 * A temporary file's lifetime (issue #34 part 4): the upload's `expires_in`, bounded by the
 * credential's policy `file_expires_in` (an upload token's, or a public key's):
 *
 *   fileExpiresIn(undefined, 3600)              -> 3600
 *   fileExpiresIn({ file_expires_in: 600 }, undefined) -> 600   (every file under the policy expires)
 *   fileExpiresIn({ file_expires_in: 600 }, 60) -> 60    (an upload may shorten it)
 *   fileExpiresIn({ file_expires_in: 600 }, 900) -> 400 VALIDATION_FAILED (never lengthen it)
 *
 * The schema bounds every value (MIN/MAX_FILE_EXPIRES_IN_SECONDS of @trove/schema). The deadline
 * itself, `expires_at`, is the database's clock at insert plus these seconds (./insert-file-row.ts),
 * so that every instance and the expiry sweep (src/files/expire-files.ts) read one clock.
 */
import type { UploadPolicy } from "@trove/schema";
import type { HttpError } from "../errors/http-error.js";
import { invalidFields } from "./upload-errors.js";

export function fileExpiresIn(
  policy: Pick<UploadPolicy, "file_expires_in"> | undefined,
  requested: number | undefined,
): number | undefined {
  const bound = policy?.file_expires_in;
  if (requested === undefined) return bound;
  if (bound !== undefined && requested > bound) throw expiresInOverPolicy(bound);
  return requested;
}

function expiresInOverPolicy(bound: number): HttpError {
  return invalidFields([
    {
      path: ["expires_in"],
      message: `must be at most ${bound} seconds with this credential (its policy's file_expires_in)`,
    },
  ]);
}
