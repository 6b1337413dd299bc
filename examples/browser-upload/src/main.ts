import "./style.css";
import {
  createUploadClient,
  localStorageSessionStore,
  TroveError,
  type UploadResult,
  type UploadTask,
} from "@trove/sdk/upload";
import { readConfig } from "./config.js";
import { watchPageSources } from "./page-sources.js";
import { forgetResumable, showResumable } from "./resumable-list.js";
import { thumbnailUrl } from "./thumbnail-url.js";
import { createUploadRow, type RowSource } from "./upload-row.js";
import { uploadTotal } from "./upload-total.js";

const list = document.querySelector<HTMLUListElement>("#uploads")!;
const resumable = document.querySelector<HTMLUListElement>("#resumable")!;
const totalLine = document.querySelector<HTMLParagraphElement>("#total")!;
const input = document.querySelector<HTMLInputElement>("#file-input")!;
const camera = document.querySelector<HTMLInputElement>("#camera-input")!;
const dropzone = document.querySelector<HTMLLabelElement>("#dropzone")!;
const overlay = document.querySelector<HTMLDivElement>("#drop-overlay")!;
const linkForm = document.querySelector<HTMLFormElement>("#link-form")!;
const linkError = document.querySelector<HTMLSpanElement>("#link-error")!;
const configError = document.querySelector<HTMLParagraphElement>("#config-error")!;

/** The URL typed into the link field when it is an absolute http(s) URL. */
function parseLink(text: string): URL | undefined {
  try {
    const url = new URL(text.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

function start(): void {
  const config = readConfig();
  const trove = createUploadClient({
    apiKey: config.publicKey, // a public key: it may only upload
    baseUrl: config.baseUrl,
    // Every file shows byte progress and can pause: a small one goes as a one-part session; files
    // over 8 MiB go up in parts, and after a reload choosing the same file continues where it stopped.
    smallUploads: "session",
    sessionStore: localStorageSessionStore(),
  });
  const total = uploadTotal(totalLine);

  function upload(source: RowSource): void {
    forgetResumable(resumable, source.name);
    let task: Pick<UploadTask, "pause" | "resume" | "abort" | "pausable"> & PromiseLike<UploadResult>;
    const row = createUploadRow(source, {
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
        row.release();
        row.element.remove();
        total.remove(row);
      },
    });
    list.prepend(row.element);

    function run(): void {
      if (source instanceof File) {
        task = trove.upload(source, {
          onProgress: (report) => {
            row.progress(report);
            total.set(row, report.loaded, report.total);
          },
        });
        total.set(row, 0, source.size);
      } else {
        // From a link: the server fetches it, one request with no byte progress and no pause.
        const controller = new AbortController();
        const fetched = trove.uploadFromUrl(source.link, {
          fileName: source.name,
          signal: controller.signal,
        });
        task = {
          pausable: false,
          pause: () => false,
          resume: () => undefined,
          abort: () => controller.abort(),
          // biome-ignore lint/suspicious/noThenProperty: the same awaitable shape as an UploadTask.
          then: (onDone, onFail) => fetched.then(onDone, onFail),
        };
      }
      row.started(task.pausable);
      task.then(
        (result) => {
          // A phone's HEIC often has no type in the browser; the server's sniff names it.
          const type = source instanceof File ? source.type : "";
          const isImage =
            type.startsWith("image/") ||
            ["heic", "png", "jpg", "jpeg", "webp", "gif"].includes(result.format);
          row.done({
            fileNo: result.file_no,
            url: result.url,
            thumbnail: isImage ? thumbnailUrl(result, config.assetsUrl) : undefined,
          });
          if (!(source instanceof File)) total.set(row, result.size, result.size);
        },
        (error: unknown) => {
          if (error instanceof TroveError && error.code === "ABORTED") row.cancelled();
          else row.failed(error instanceof Error ? error.message : String(error));
        },
      );
    }
    run();
  }

  const uploadAll = (files: Iterable<File>) => {
    for (const file of files) upload(file);
  };

  void showResumable(trove, resumable);
  for (const picker of [input, camera]) {
    picker.addEventListener("change", () => {
      uploadAll(picker.files ?? []);
      picker.value = ""; // choosing the same file again fires `change` again
    });
  }
  document.querySelector("#camera-button")!.addEventListener("click", () => camera.click());
  // Drops anywhere on the page (with an overlay while dragging) and pasted files.
  watchPageSources({
    onDragging: (dragging) => {
      overlay.hidden = !dragging;
      dropzone.classList.toggle("over", dragging);
    },
    onFiles: uploadAll,
  });
  linkForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const field = linkForm.elements.namedItem("url") as HTMLInputElement;
    const url = parseLink(field.value);
    linkError.hidden = !!url;
    field.setAttribute("aria-invalid", String(!url));
    if (!url) return;
    const name = decodeURIComponent(url.pathname.split("/").filter(Boolean).pop() ?? url.hostname);
    upload({ name, link: url.href });
    field.value = "";
  });
}

try {
  start();
} catch (error) {
  configError.textContent = error instanceof Error ? error.message : String(error);
  configError.hidden = false;
  dropzone.hidden = true;
}
