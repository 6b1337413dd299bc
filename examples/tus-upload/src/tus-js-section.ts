import { defaultOptions, type PreviousUpload, Upload } from "tus-js-client";
import type { TusConfig } from "./config.js";
import { formatBytes } from "./format-bytes.js";
import { readTroveFile, showTroveFile } from "./trove-result.js";

export interface TusJsElements {
  section: HTMLElement;
  input: HTMLInputElement;
  progress: HTMLProgressElement;
  status: HTMLOutputElement;
  pause: HTMLButtonElement;
  resume: HTMLButtonElement;
  result: HTMLElement;
  interrupted: HTMLElement;
}

type State = "idle" | "uploading" | "paused" | "done" | "error";

/**
 * tus-js-client on a plain file input. Its fingerprint store (localStorage, on by default in
 * browsers) maps a file's name, type, size and modification time to the upload URL Trove gave it,
 * so choosing the same file after a reload finds that URL, asks Trove for the offset (HEAD) and
 * sends only the rest.
 */
export function mountTusJs(config: TusConfig, el: TusJsElements): void {
  let upload: Upload | undefined;

  const setState = (state: State, text: string) => {
    el.section.dataset.state = state;
    el.status.value = text;
    el.pause.disabled = state !== "uploading";
    el.resume.disabled = state !== "paused";
  };

  el.input.addEventListener("change", () => {
    const file = el.input.files?.[0];
    if (!file) return;
    void upload?.abort();
    el.result.hidden = true;
    el.progress.value = 0;
    upload = startUpload(file);
  });
  el.pause.addEventListener("click", () => {
    // Aborting keeps the upload URL: Trove keeps the bytes it received, `start()` goes on from them.
    void upload?.abort();
    setState("paused", `Paused at ${el.progress.value.toFixed(0)}%.`);
  });
  el.resume.addEventListener("click", () => {
    upload?.start();
    setState("uploading", "Resuming…");
  });

  function startUpload(file: File): Upload {
    const metadata: Record<string, string> = {
      filename: file.name,
      filetype: file.type || "application/octet-stream",
    };
    if (config.folder) metadata.folder = config.folder;
    const next = new Upload(file, {
      endpoint: config.endpoint,
      headers: config.headers,
      metadata,
      // Waits between retries of a failed request; each retry first asks Trove for the offset.
      retryDelays: [0, 1000, 3000, 5000],
      storeFingerprintForResuming: true,
      // A finished file's URL is forgotten, so choosing it again is a new upload.
      removeFingerprintOnSuccess: true,
      onProgress(sent, total) {
        el.progress.value = total ? (sent / total) * 100 : 0;
        el.status.value = `${formatBytes(sent)} of ${formatBytes(total)}`;
      },
      onSuccess({ lastResponse }) {
        try {
          const troveFile = readTroveFile((name) => lastResponse.getHeader(name));
          showTroveFile(el.result, file.name, troveFile);
          el.result.hidden = false;
          setState("done", `${file.name}: done.`);
        } catch (error) {
          setState("error", String(error instanceof Error ? error.message : error));
        }
        void listInterrupted(el.interrupted);
      },
      onError(error) {
        setState("error", `Upload failed: ${error.message}`);
      },
    });
    setState("uploading", "Starting…");
    next.findPreviousUploads().then(
      (previous) => {
        const last = newest(previous);
        if (last) {
          next.resumeFromPreviousUpload(last);
          setState(
            "uploading",
            `Resuming the upload started ${new Date(last.creationTime).toLocaleString()}…`,
          );
        }
        // The abort of a previous upload or a new choice may have replaced this one meanwhile.
        if (upload === next) next.start();
      },
      (error: unknown) => setState("error", `Could not read stored uploads: ${String(error)}`),
    );
    return next;
  }

  void listInterrupted(el.interrupted);
}

const newest = (uploads: PreviousUpload[]): PreviousUpload | undefined =>
  [...uploads].sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime))[0];

/** The unfinished uploads the fingerprint store remembers: a page cannot reopen a file by itself. */
async function listInterrupted(list: HTMLElement): Promise<void> {
  const uploads = await defaultOptions.urlStorage.findAllUploads();
  list.replaceChildren(
    ...uploads.map((previous) => {
      const item = document.createElement("li");
      const name = previous.metadata.filename ?? previous.metadata.name ?? "a file";
      const size = previous.size === null ? "" : ` (${formatBytes(previous.size)})`;
      item.textContent = `${name}${size} was interrupted: choose it again to resume.`;
      return item;
    }),
  );
  list.hidden = uploads.length === 0;
}
