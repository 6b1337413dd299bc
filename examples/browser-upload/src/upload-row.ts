/**
 * One file's row in the list: a preview (the chosen image itself at once, from an object URL;
 * the delivery host's thumbnail once uploaded; a placeholder for files that are not images), the
 * name and size, a bar, what was sent and what storage confirmed, speed and time left, and the
 * buttons the row's state allows. `data-state` is uploading | paused | done | failed | cancelled.
 * A row "from a link" has no bytes in the page: its bar is indeterminate until the server answers.
 */
import type { UploadProgress } from "@trove/sdk/upload";
import { formatBytes, formatDuration, transferRate } from "./format-transfer.js";

export type RowState = "uploading" | "paused" | "done" | "failed" | "cancelled";

export interface RowActions {
  pause(): void;
  resume(): void;
  cancel(): void;
  retry(): void;
  remove(): void;
}

export interface UploadRow {
  element: HTMLLIElement;
  /** A new upload of the file started (first run or retry); `pausable` decides the Pause button. */
  started(pausable: boolean): void;
  progress(report: UploadProgress): void;
  paused(): void;
  resumed(): void;
  done(details: { fileNo: string; url: string; thumbnail: string | undefined }): void;
  /** Frees the local preview (call when the row is removed). */
  release(): void;
  failed(message: string): void;
  cancelled(): void;
}

function button(label: string, action: string, onClick: () => void): HTMLButtonElement {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  element.dataset.action = action;
  element.addEventListener("click", onClick);
  return element;
}

function child<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  element.className = className;
  return element;
}

/** The file's extension (or "file", or "link") in a box, where an image would show its thumbnail. */
function placeholder(source: RowSource): HTMLSpanElement {
  const element = child("span", "placeholder");
  const extension = /\.([a-z0-9]{1,5})$/i.exec(source.name)?.[1]?.toUpperCase();
  element.textContent = source instanceof File ? (extension ?? "FILE") : "LINK";
  return element;
}

/** A chosen file, or a link the server fetches (remote-URL upload). */
export type RowSource = File | { name: string; link: string };

export function createUploadRow(source: RowSource, actions: RowActions): UploadRow {
  const element = child("li", "upload");
  element.dataset.name = source.name;

  const thumb = child("img", "thumb");
  thumb.alt = "";
  thumb.hidden = true;
  const fallback = placeholder(source);
  // A file this browser (HEIC) or the server cannot show as an image keeps its placeholder.
  thumb.addEventListener("error", () => {
    thumb.hidden = true;
    fallback.hidden = false;
  });
  // The chosen image itself, before a byte is sent; revoked when the server's thumbnail replaces it.
  let localPreview: string | undefined;
  if (source instanceof File && source.type.startsWith("image/")) {
    localPreview = URL.createObjectURL(source);
    thumb.src = localPreview;
    thumb.hidden = false;
    fallback.hidden = true;
  }
  const release = () => {
    if (localPreview) URL.revokeObjectURL(localPreview);
    localPreview = undefined;
  };

  const name = child("span", "name");
  name.textContent =
    source instanceof File ? `${source.name} · ${formatBytes(source.size)}` : `${source.name} · link`;
  const bar = child("progress", "bar");
  bar.max = 100;
  bar.value = 0;
  const status = child("span", "status");
  const detail = child("span", "detail");

  const pause = button("Pause", "pause", actions.pause);
  const resume = button("Resume", "resume", actions.resume);
  const cancel = button("Cancel", "cancel", actions.cancel);
  const retry = button("Retry", "retry", actions.retry);
  const remove = button("Remove", "remove", actions.remove);
  const controls = child("span", "controls");
  controls.append(pause, resume, cancel, retry, remove);

  const link = child("a", "link");
  link.target = "_blank";
  link.rel = "noopener";
  link.hidden = true;
  link.textContent = "open";

  element.append(thumb, fallback, name, bar, status, controls, detail, link);

  let pausable = false;
  let percent = 0;
  const rate = transferRate();
  function setState(state: RowState, text?: string): void {
    element.dataset.state = state;
    status.textContent = text ?? (state === "uploading" ? `${percent}%` : state);
    // A direct upload is one request the SDK cannot hold: no Pause button rather than a fake one.
    pause.hidden = state !== "uploading" || !pausable;
    resume.hidden = state !== "paused";
    cancel.hidden = state !== "uploading" && state !== "paused";
    retry.hidden = state !== "failed" && state !== "cancelled";
    remove.hidden = state === "uploading" || state === "paused";
    if (state !== "uploading") rate.reset();
  }

  return {
    element,
    started(canPause) {
      pausable = canPause;
      percent = 0;
      // A link's row has no byte progress: an indeterminate bar while the server fetches it.
      if (source instanceof File) bar.value = 0;
      else bar.removeAttribute("value");
      detail.textContent = "";
      setState("uploading");
    },
    progress({ loaded, confirmed, total, percent: now }) {
      percent = now;
      bar.value = now;
      rate.add(loaded);
      const speed = rate.perSecond();
      const parts = [`${formatBytes(loaded)} of ${formatBytes(total)} sent`];
      // Multipart: a pause or a failure loses the parts in flight; confirmed bytes are kept.
      if (pausable) parts.push(`${formatBytes(confirmed)} confirmed`);
      if (speed && element.dataset.state === "uploading") {
        parts.push(`${formatBytes(speed)}/s`);
        if (loaded < total) parts.push(`${formatDuration((total - loaded) / speed)} left`);
      }
      detail.textContent = parts.join(" · ");
      if (element.dataset.state === "uploading") status.textContent = `${now}%`;
    },
    paused: () => setState("paused"),
    resumed: () => setState("uploading"),
    done({ fileNo, url, thumbnail }) {
      element.dataset.fileNo = fileNo;
      bar.value = 100;
      setState("done", "uploaded");
      link.href = url;
      link.hidden = false;
      if (thumbnail) {
        release();
        thumb.src = thumbnail;
        thumb.hidden = false;
        fallback.hidden = true;
      }
    },
    release,
    failed(message) {
      setState("failed", "failed");
      detail.textContent = message;
    },
    cancelled() {
      setState("cancelled");
    },
  };
}
