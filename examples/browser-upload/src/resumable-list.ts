/**
 * The uploads a reload interrupted. The session store keeps their sessions but not the files
 * (a page cannot reopen a file by itself), so the page says which file to choose again; the SDK
 * then continues where it stopped.
 */
import type { TroveUploadClient } from "@trove/sdk/upload";

export async function showResumable(trove: TroveUploadClient, list: HTMLUListElement): Promise<void> {
  const sessions = await trove.listStoredSessions();
  for (const session of sessions) {
    const item = document.createElement("li");
    item.dataset.name = session.fileName;
    const percent = Math.floor((session.confirmed / session.size) * 100);
    item.textContent = `Resume ${session.fileName} (${percent}%): choose the file again`;
    list.append(item);
  }
  list.hidden = sessions.length === 0;
}

/** A file was chosen: its entry, if any, is no longer a reminder. */
export function forgetResumable(list: HTMLUListElement, fileName: string): void {
  for (const item of list.querySelectorAll<HTMLLIElement>("li")) {
    if (item.dataset.name === fileName) item.remove();
  }
  list.hidden = list.childElementCount === 0;
}
