/**
 * What one upload from the page may store. Each token the backend mints carries this policy, and
 * Trove enforces it on the bytes it receives (the type is sniffed, not taken from the browser).
 */
import type { CreateUploadTokenBody } from "@trove/sdk";

export const UPLOAD_FOLDER = "uploads";
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** The folder a browser session's uploads go to, and the only one its file list shows. */
export const sessionFolder = (sessionId: string) => `${UPLOAD_FOLDER}/${sessionId}`;

export function pageUploadPolicy(sessionId: string): CreateUploadTokenBody {
  return {
    // Exact: the token cannot store anywhere else, so one session's list never shows another's files.
    folder: sessionFolder(sessionId),
    allowed_types: ["image/*"],
    max_file_size: MAX_UPLOAD_BYTES,
    // One file per token, for five minutes: the page asks for a token right before each upload.
    max_files: 1,
    expires_in: 300,
  };
}
