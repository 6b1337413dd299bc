import "./style.css";
import { createUploadClient, localStorageSessionStore, TroveError, type UploadTask } from "@trove/sdk/upload";
import { readConfig } from "./config.js";
import { forgetResumable, showResumable } from "./resumable-list.js";
import { thumbnailUrl } from "./thumbnail-url.js";
import { createUploadRow } from "./upload-row.js";
import { uploadTotal } from "./upload-total.js";

const list = document.querySelector<HTMLUListElement>("#uploads")!;
const resumable = document.querySelector<HTMLUListElement>("#resumable")!;
const totalLine = document.querySelector<HTMLParagraphElement>("#total")!;
const input = document.querySelector<HTMLInputElement>("#file-input")!;
const dropzone = document.querySelector<HTMLLabelElement>("#dropzone")!;
const configError = document.querySelector<HTMLParagraphElement>("#config-error")!;

function start(): void {
  const config = readConfig();
  const trove = createUploadClient({
    apiKey: config.publicKey, // a public key: it may only upload
    baseUrl: config.baseUrl,
    // Files over 8 MiB go up in parts; after a reload, choosing the same file continues where it stopped.
    sessionStore: localStorageSessionStore(),
  });
  const total = uploadTotal(totalLine);

  function upload(file: File): void {
    forgetResumable(resumable, file.name);
    let task: UploadTask;
    const row = createUploadRow(file, {
      pause: () => {
        if (task.pause()) row.paused();
      },
      resume: () => {
        task.resume();
        row.resumed();
      },
      cancel: () => task.abort(),
      retry: () => run(),
      remove: () => {
        row.element.remove();
        total.remove(row);
      },
    });
    list.prepend(row.element);

    function run(): void {
      task = trove.upload(file, {
        onProgress: (report) => {
          row.progress(report);
          total.set(row, report.loaded, report.total);
        },
      });
      row.started(task.pausable);
      total.set(row, 0, file.size);
      task.then(
        (result) => {
          // A phone's HEIC often has no type in the browser; the server's sniff names it.
          const isImage = file.type.startsWith("image/") || result.format === "heic";
          row.done({
            fileNo: result.file_no,
            url: result.url,
            thumbnail: isImage ? thumbnailUrl(result, config.assetsUrl) : undefined,
          });
        },
        (error: unknown) => {
          if (error instanceof TroveError && error.code === "ABORTED") row.cancelled();
          else row.failed(error instanceof Error ? error.message : String(error));
        },
      );
    }
    run();
  }

  void showResumable(trove, resumable);
  input.addEventListener("change", () => {
    for (const file of input.files ?? []) upload(file);
    input.value = ""; // choosing the same file again fires `change` again
  });
  dropzone.addEventListener("dragover", (event) => {
    event.preventDefault();
    dropzone.classList.add("over");
  });
  dropzone.addEventListener("dragleave", () => dropzone.classList.remove("over"));
  dropzone.addEventListener("drop", (event) => {
    event.preventDefault();
    dropzone.classList.remove("over");
    for (const file of event.dataTransfer?.files ?? []) upload(file);
  });
}

try {
  start();
} catch (error) {
  configError.textContent = error instanceof Error ? error.message : String(error);
  configError.hidden = false;
  dropzone.hidden = true;
}
