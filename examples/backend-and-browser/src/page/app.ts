// The browser side: holds no key. Before each upload it asks its own backend for a one-file
// upload token, then uploads straight to Trove with it; each file gets a row with its progress
// and, if it fails, its own message with Retry and Remove. Below, the files this browser session
// uploaded, as the backend lists them.
import { createUploadClient, TroveError, type UploadTask } from "@trove/sdk/upload";
import { uploadToken } from "./backend-api.js";
import { refreshFileList } from "./file-list.js";
import type { PageConfig } from "./page-html.js";
import { createUploadRow } from "./upload-row.js";
import { uploadTotal } from "./upload-total.js";

const config = JSON.parse(document.querySelector("#trove-config")!.textContent!) as PageConfig;

// `uploadToken` is called once per upload: each token is good for one file.
const trove = createUploadClient({ token: uploadToken, baseUrl: config.baseUrl });

const input = document.querySelector<HTMLInputElement>("#file-input")!;
const rows = document.querySelector<HTMLUListElement>("#uploads")!;
const total = uploadTotal(document.querySelector<HTMLParagraphElement>("#total")!);
const files = document.querySelector<HTMLUListElement>("#files")!;
const filesProblem = document.querySelector<HTMLParagraphElement>("#files-problem")!;

/** The refusals this page's policy can cause, in words; anything else as the SDK says it. */
function describeFailure(error: unknown): string {
  if (!(error instanceof TroveError)) return error instanceof Error ? error.message : String(error);
  switch (error.code) {
    case "TYPE_NOT_ALLOWED":
      return "Only images can be uploaded here";
    case "FILE_TOO_LARGE":
      return "Images up to 10 MB";
    case "TOKEN_UNAVAILABLE":
      // What the token route said (see backend-api.ts), not the SDK's generic sentence.
      return `No upload token: ${error.cause instanceof Error ? error.cause.message : error.message}`;
    default:
      // A server the page cannot reach is one ConnectionError naming the likely causes.
      return error.message;
  }
}

function upload(file: File): void {
  let task: UploadTask;
  const row = createUploadRow(file, {
    cancel: () => task.abort(),
    retry: () => run(),
    remove: () => {
      row.element.remove();
      total.remove(row);
    },
  });
  rows.prepend(row.element);

  function run(): void {
    task = trove.upload(file, {
      onProgress: (report) => {
        row.progress(report);
        total.set(row, report.loaded, report.total);
      },
    });
    row.started();
    total.set(row, 0, file.size);
    task.then(
      () => {
        row.done();
        void refreshFileList(files, filesProblem);
      },
      (error: unknown) => {
        if (error instanceof TroveError && error.code === "ABORTED") row.cancelled();
        else row.failed(describeFailure(error));
      },
    );
  }
  run();
}

input.addEventListener("change", () => {
  for (const file of input.files ?? []) upload(file);
  input.value = ""; // choosing the same file again fires `change` again
});

void refreshFileList(files, filesProblem);
