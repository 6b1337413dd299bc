/**
 * What the uploader's live region says. A screen reader should hear each file start, every
 * quarter of its progress, a pause, the end and a failure; not every progress report (several a
 * second would drown everything else out).
 */
import type { UploadItem } from "./upload-state.js";
import { ENGLISH, percent, type UploaderStrings } from "./uploader-strings.js";

const STEP_PERCENT = 25;

type Seen = Pick<UploadItem, "id" | "status" | "percent">;

/** Sentences for what changed between two renders of the list, in list order. */
export function announcementsBetween(
  previous: readonly Seen[],
  next: readonly UploadItem[],
  strings: Pick<UploaderStrings, "locale" | "announceStatus" | "announceProgress"> = ENGLISH,
): string[] {
  const before = new Map(previous.map((item) => [item.id, item]));
  const said: string[] = [];
  for (const item of next) {
    const old = before.get(item.id);
    const name = item.file.name;
    const share = percent(item.percent, strings.locale);
    if (old?.status !== item.status) {
      if (old || item.status !== "idle")
        said.push(strings.announceStatus(name, item.status, share, item.error?.message));
    } else if (
      item.status === "uploading" &&
      Math.floor(item.percent / STEP_PERCENT) > Math.floor(old.percent / STEP_PERCENT) &&
      item.percent < 100
    ) {
      said.push(strings.announceProgress(name, share));
    }
  }
  return said;
}
