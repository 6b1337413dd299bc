/**
 * What the uploader's live region says. A screen reader should hear each file start, every
 * quarter of its progress, a pause, the end and a failure; not every progress report (several a
 * second would drown everything else out).
 */
import type { UploadItem } from "./upload-state.js";

const STEP_PERCENT = 25;

type Seen = Pick<UploadItem, "id" | "status" | "percent">;

/** Sentences for what changed between two renders of the list, in list order. */
export function announcementsBetween(previous: readonly Seen[], next: readonly UploadItem[]): string[] {
  const before = new Map(previous.map((item) => [item.id, item]));
  const said: string[] = [];
  for (const item of next) {
    const old = before.get(item.id);
    const name = item.file.name;
    if (old?.status !== item.status) {
      const sentence = statusSentence(item);
      if (sentence && (old || item.status !== "idle")) said.push(`${name}: ${sentence}`);
    } else if (
      item.status === "uploading" &&
      Math.floor(item.percent / STEP_PERCENT) > Math.floor(old.percent / STEP_PERCENT) &&
      item.percent < 100
    ) {
      said.push(`${name}: ${item.percent}%`);
    }
  }
  return said;
}

function statusSentence(item: UploadItem): string | undefined {
  switch (item.status) {
    case "uploading":
      return "uploading";
    case "paused":
      return `paused at ${item.percent}%`;
    case "done":
      return "uploaded";
    case "error":
      return `failed: ${item.error?.message ?? "unknown error"}`;
    case "aborted":
      return "cancelled";
    case "idle":
      return "waiting";
  }
}
