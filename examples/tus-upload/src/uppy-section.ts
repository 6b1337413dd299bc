import Uppy from "@uppy/core";
import Dashboard from "@uppy/dashboard";
import Tus, { type TusBody } from "@uppy/tus";
import "@uppy/core/css/style.min.css";
import "@uppy/dashboard/css/style.min.css";
import type { TusConfig } from "./config.js";
import { readTroveFile, showTroveFile } from "./trove-result.js";

/** What the page keeps on each Uppy file: the folder Trove puts it in (sent as tus metadata). */
type TroveMeta = { folder?: string };

/**
 * Uppy's inline Dashboard with its tus plugin. Uppy resumes by itself: the tus plugin keeps each
 * upload's URL in localStorage under a fingerprint of the file, so after a reload adding the same
 * file again continues it (a HEAD for the offset, then PATCHes from there).
 */
export function mountUppy(
  config: TusConfig,
  dashboard: HTMLElement,
  results: HTMLElement,
): Uppy<TroveMeta, TusBody> {
  const uppy = new Uppy<TroveMeta, TusBody>({
    // Every file gets the folder; Uppy's tus plugin sends `name`/`type` and copies them to the
    // `filename`/`filetype` keys tus servers (Trove too) read.
    meta: config.folder ? { folder: config.folder } : {},
  })
    .use(Dashboard, {
      inline: true,
      target: dashboard,
      height: 360,
      note: "Resumable: reload mid-upload and add the file again.",
    })
    .use(Tus, {
      endpoint: config.endpoint,
      headers: config.headers,
      // Only what Trove reads: Uppy's other meta (e.g. `relativePath`) stays in the browser.
      allowedMetaFields: ["name", "type", "folder"],
      // Retries a lost connection from the last offset the server confirmed (no retry on 4xx).
      retryDelays: [0, 1000, 3000, 5000],
      // A finished file's URL is forgotten, so adding the same file again is a new upload.
      removeFingerprintOnSuccess: true,
    });

  const resultItem = (name: string | undefined) => {
    const item = document.createElement("li");
    item.dataset.name = name ?? "";
    results.append(item);
    return item;
  };
  const showError = (item: HTMLElement, message: string) => {
    item.textContent = message;
    item.className = "error";
  };

  uppy.on("upload-success", (file, response) => {
    const item = resultItem(file?.name);
    try {
      // `body.xhr` is the request that finished the upload: Trove answers it with the file's headers.
      const xhr = response.body?.xhr;
      showTroveFile(
        item,
        file?.name ?? "file",
        readTroveFile((name) => xhr?.getResponseHeader(name)),
      );
    } catch (error) {
      showError(item, error instanceof Error ? error.message : String(error));
    }
  });
  // The Dashboard shows the error too; the list keeps one line per file, failed or not.
  uppy.on("upload-error", (file, error) => {
    showError(resultItem(file?.name), `${file?.name ?? "Upload"} failed: ${error.message}`);
  });
  return uppy;
}
