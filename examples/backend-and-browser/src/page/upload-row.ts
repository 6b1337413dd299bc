/**
 * One upload's row: the file's name and size, a bar, bytes sent with speed and time left, and the
 * buttons its state allows. A failed row keeps its own message, so several failures stay readable
 * side by side, each next to its file. `data-state` is uploading | done | failed | cancelled.
 */
import type { UploadProgress } from "@trove/sdk/upload";
import { filePlaceholder } from "./file-placeholder.js";
import { formatBytes, formatDuration, transferRate } from "./format-transfer.js";

export type RowState = "uploading" | "done" | "failed" | "cancelled";

export interface RowActions {
  cancel(): void;
  retry(): void;
  remove(): void;
}

export interface UploadRow {
  element: HTMLLIElement;
  /** A new upload of the file started (first run or retry). */
  started(): void;
  progress(report: UploadProgress): void;
  done(): void;
  failed(message: string): void;
  cancelled(): void;
}

function part<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  element.className = className;
  return element;
}

function button(label: string, action: string, onClick: () => void): HTMLButtonElement {
  const element = part("button", "");
  element.type = "button";
  element.textContent = label;
  element.dataset.action = action;
  element.addEventListener("click", onClick);
  return element;
}

export function createUploadRow(file: File, actions: RowActions): UploadRow {
  const element = part("li", "upload");
  element.dataset.name = file.name;
  const name = part("span", "name");
  name.textContent = `${file.name} · ${formatBytes(file.size)}`;
  const bar = part("progress", "bar");
  bar.max = 100;
  const status = part("span", "status");
  const detail = part("span", "detail");
  const cancel = button("Cancel", "cancel", actions.cancel);
  const retry = button("Retry", "retry", actions.retry);
  const remove = button("Remove", "remove", actions.remove);
  const controls = part("span", "controls");
  controls.append(cancel, retry, remove);
  element.append(filePlaceholder(file.name), name, bar, status, controls, detail);

  const rate = transferRate();
  function setState(state: RowState, text: string): void {
    element.dataset.state = state;
    status.textContent = text;
    cancel.hidden = state !== "uploading";
    retry.hidden = state !== "failed" && state !== "cancelled";
    remove.hidden = state === "uploading";
    if (state !== "uploading") rate.reset();
  }

  return {
    element,
    started() {
      bar.value = 0;
      detail.textContent = "";
      setState("uploading", "0%");
    },
    progress({ loaded, total, percent }) {
      if (element.dataset.state !== "uploading") return;
      bar.value = percent;
      status.textContent = `${percent}%`;
      rate.add(loaded);
      const speed = rate.perSecond();
      const parts = [`${formatBytes(loaded)} of ${formatBytes(total)} sent`];
      if (speed) {
        parts.push(`${formatBytes(speed)}/s`);
        if (loaded < total) parts.push(`${formatDuration((total - loaded) / speed)} left`);
      }
      detail.textContent = parts.join(" · ");
    },
    done() {
      bar.value = 100;
      setState("done", "uploaded");
    },
    failed(message) {
      setState("failed", "failed");
      detail.textContent = message;
    },
    cancelled() {
      setState("cancelled", "cancelled");
      detail.textContent = "";
    },
  };
}
