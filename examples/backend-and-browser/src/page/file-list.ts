/**
 * "Your files": what this browser session uploaded, as the backend lists it. A thumbnail is shown
 * at most at its own size (a small image is not blown up); a file without one gets a placeholder.
 * When the list cannot be fetched, the reason is shown in its place, never thrown at the console.
 */
import type { ListedFile } from "../list-files.js";
import { sessionFiles } from "./backend-api.js";
import { filePlaceholder } from "./file-placeholder.js";
import { formatBytes } from "./format-transfer.js";

function fileItem(file: ListedFile): HTMLLIElement {
  const item = document.createElement("li");
  item.dataset.fileNo = file.file_no;
  item.dataset.name = file.name;
  const preview = document.createElement("span");
  preview.className = "preview";
  const placeholder = filePlaceholder(file.name);
  if (file.thumbnail) {
    const img = document.createElement("img");
    img.src = file.thumbnail;
    img.alt = "";
    // A thumbnail the delivery host cannot make (an image it does not decode) keeps the placeholder.
    placeholder.hidden = true;
    img.addEventListener("error", () => {
      img.remove();
      placeholder.hidden = false;
    });
    preview.append(img);
  }
  preview.append(placeholder);
  const link = document.createElement("a");
  link.href = file.url;
  link.textContent = file.name;
  const size = document.createElement("small");
  size.textContent = formatBytes(file.size);
  item.append(preview, link, size);
  return item;
}

export async function refreshFileList(list: HTMLUListElement, problem: HTMLElement): Promise<void> {
  try {
    const files = await sessionFiles();
    list.replaceChildren(...files.map(fileItem));
    problem.hidden = true;
  } catch (error) {
    problem.textContent = `Could not load your files: ${error instanceof Error ? error.message : String(error)}`;
    problem.hidden = false;
  }
}
