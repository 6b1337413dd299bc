/** One file's row in the list: name, progress bar, pause/resume/cancel, then the thumbnail. */
import type { UploadProgress } from "@trove/sdk/upload";

export type RowState = "uploading" | "paused" | "done" | "failed" | "cancelled";

export interface RowActions {
  pause(): void;
  resume(): void;
  cancel(): void;
}

export interface UploadRow {
  element: HTMLLIElement;
  progress(report: UploadProgress): void;
  done(details: { fileNo: string; url: string; thumbnail: string | undefined }): void;
  failed(message: string): void;
  cancelled(): void;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function button(label: string, action: string, onClick: () => void): HTMLButtonElement {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  element.dataset.action = action;
  element.addEventListener("click", onClick);
  return element;
}

export function createUploadRow(file: File, actions: RowActions): UploadRow {
  const element = document.createElement("li");
  element.className = "upload";
  element.dataset.name = file.name;

  const thumb = document.createElement("img");
  thumb.className = "thumb";
  thumb.alt = "";
  thumb.hidden = true;
  // A file the server could not thumbnail (not an image it decodes) just shows no picture.
  thumb.addEventListener("error", () => {
    thumb.hidden = true;
  });

  const name = document.createElement("span");
  name.className = "name";
  name.textContent = `${file.name} · ${formatBytes(file.size)}`;

  const bar = document.createElement("progress");
  bar.max = 100;
  bar.value = 0;

  const status = document.createElement("span");
  status.className = "status";

  const pause = button("Pause", "pause", () => {
    actions.pause();
    setState("paused");
  });
  const resume = button("Resume", "resume", () => {
    actions.resume();
    setState("uploading");
  });
  const cancel = button("Cancel", "cancel", () => actions.cancel());
  const controls = document.createElement("span");
  controls.className = "controls";
  controls.append(pause, resume, cancel);

  const link = document.createElement("a");
  link.className = "link";
  link.target = "_blank";
  link.rel = "noopener";
  link.hidden = true;
  link.textContent = "open";

  element.append(thumb, name, bar, status, controls, link);

  let percent = 0;
  function setState(state: RowState, text?: string): void {
    element.dataset.state = state;
    status.textContent = text ?? (state === "uploading" ? `${percent}%` : state);
    pause.hidden = state !== "uploading";
    resume.hidden = state !== "paused";
    cancel.hidden = state !== "uploading" && state !== "paused";
  }
  setState("uploading");

  return {
    element,
    progress(report) {
      percent = report.percent;
      bar.value = report.percent;
      if (element.dataset.state === "uploading") status.textContent = `${report.percent}%`;
    },
    done({ fileNo, url, thumbnail }) {
      element.dataset.fileNo = fileNo;
      bar.value = 100;
      setState("done", "uploaded");
      link.href = url;
      link.hidden = false;
      if (thumbnail) {
        thumb.src = thumbnail;
        thumb.hidden = false;
      }
    },
    failed(message) {
      setState("failed", message);
    },
    cancelled() {
      setState("cancelled");
    },
  };
}
