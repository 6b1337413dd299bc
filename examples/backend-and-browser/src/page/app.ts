// The browser side: holds no key. Before each upload it asks its own backend for a one-file
// upload token, then uploads straight to Trove with it and shows the backend's file list.
import { createUploadClient, TroveError } from "@trove/sdk/upload";
import type { ListedFile } from "../list-files.js";
import type { PageConfig } from "./page-html.js";

const config = JSON.parse(document.querySelector("#trove-config")!.textContent!) as PageConfig;

async function uploadToken(): Promise<string> {
  const response = await fetch("/api/upload-token", { method: "POST" });
  if (!response.ok) throw new Error(`POST /api/upload-token answered ${response.status}`);
  return response.text();
}

// Called once per upload: each token is good for one file.
const trove = createUploadClient({ token: uploadToken, baseUrl: config.baseUrl });

const input = document.querySelector<HTMLInputElement>("#file-input")!;
const status = document.querySelector<HTMLParagraphElement>("#status")!;
const progress = document.querySelector<HTMLProgressElement>("#progress")!;
const list = document.querySelector<HTMLUListElement>("#files")!;

async function refreshList(): Promise<void> {
  const response = await fetch("/api/files");
  if (!response.ok) throw new Error(`GET /api/files answered ${response.status}`);
  const { files } = (await response.json()) as { files: ListedFile[] };
  list.replaceChildren(
    ...files.map((file) => {
      const item = document.createElement("li");
      item.dataset.fileNo = file.file_no;
      item.dataset.name = file.name;
      if (file.thumbnail) {
        const img = document.createElement("img");
        img.src = file.thumbnail;
        img.alt = "";
        item.append(img);
      }
      const link = document.createElement("a");
      link.href = file.url;
      link.textContent = file.name;
      item.append(link);
      return item;
    }),
  );
}

/** The refusals this page's policy can cause, in words; anything else as the SDK says it. */
function describeFailure(error: unknown): string {
  if (!(error instanceof TroveError)) return String(error);
  switch (error.code) {
    case "TYPE_NOT_ALLOWED":
      return "TYPE_NOT_ALLOWED: only images can be uploaded here";
    case "FILE_TOO_LARGE":
      return "FILE_TOO_LARGE: images up to 10 MB";
    default:
      return `${error.code}: ${error.message}`;
  }
}

input.addEventListener("change", async () => {
  const files = [...(input.files ?? [])];
  input.value = "";
  for (const file of files) {
    progress.hidden = false;
    status.textContent = `Uploading ${file.name}…`;
    try {
      await trove.upload(file, {
        onProgress: ({ percent }) => {
          progress.value = percent;
        },
      });
      status.textContent = `Uploaded ${file.name}`;
    } catch (error) {
      status.textContent = describeFailure(error);
    }
  }
  progress.hidden = true;
  await refreshList();
});

refreshList().catch((error: unknown) => {
  status.textContent = String(error);
});
