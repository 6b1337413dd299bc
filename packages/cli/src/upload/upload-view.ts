import type { UploadProgress, UploadResult } from "@trove/sdk/node";
import type { UploadItem } from "./collect-files.js";

/** What the upload command shows while it runs: bars in a terminal, lines otherwise, or nothing. */
export interface UploadView {
  started(item: UploadItem): void;
  /** A stored multipart session is being continued: `bytes` were uploaded by an earlier run. */
  resumed(item: UploadItem, bytes: number): void;
  progress(item: UploadItem, progress: UploadProgress): void;
  uploaded(item: UploadItem, result: UploadResult): void;
  /** `item` is undefined for an argument that could not be read; `sentence` starts with "Error:". */
  failed(item: UploadItem | undefined, sentence: string): void;
  /** Removes bars (and restores the cursor) so that the summary prints below them. */
  close(): void;
}

/** `--json`: nothing while running; the command prints one JSON document at the end. */
export const silentView: UploadView = {
  started() {},
  resumed() {},
  progress() {},
  uploaded() {},
  failed() {},
  close() {},
};
