import "./style.css";
import { createUploadClient, localStorageSessionStore, TroveError } from "@trove/sdk/upload";
import { readConfig } from "./config.js";
import { thumbnailUrl } from "./thumbnail-url.js";
import { createUploadRow } from "./upload-row.js";

const list = document.querySelector<HTMLUListElement>("#uploads")!;
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

  function upload(file: File): void {
    const task = trove.upload(file, { onProgress: (report) => row.progress(report) });
    const row = createUploadRow(file, {
      pause: () => task.pause(),
      resume: () => task.resume(),
      cancel: () => task.abort(),
    });
    list.prepend(row.element);
    task.then(
      (result) => {
        const isImage = file.type.startsWith("image/");
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
