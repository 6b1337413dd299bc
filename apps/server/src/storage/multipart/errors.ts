/**
 * Errors of the multipart storage layer. A body of the wrong length is `SizeMismatchError` from
 * ../driver.ts; an invalid key is `InvalidObjectKeyError`. Suggested HTTP mapping for the routes:
 * UploadNotFoundError 404, InvalidPartError 400, InvalidUploadPlanError 400,
 * SizeMismatchError 400.
 */

/** The upload id is unknown to the store: never begun, aborted, completed, or expired. */
export class UploadNotFoundError extends Error {
  override name = "UploadNotFoundError";
  constructor(readonly uploadId: string) {
    super("Multipart upload not found");
  }
}

/** A part number, part size or complete part list that the upload cannot accept. */
export class InvalidPartError extends Error {
  override name = "InvalidPartError";
  constructor(
    message: string,
    readonly partNumber?: number,
  ) {
    super(message);
  }
}

/** `begin` (or `choosePartSize`) got a size, part size or part count it cannot use. */
export class InvalidUploadPlanError extends Error {
  override name = "InvalidUploadPlanError";
}
