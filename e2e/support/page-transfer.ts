/**
 * Files handed to a page the way a user's drag or paste hands them: a real `DataTransfer` built
 * in the page, in DragEvents (`dragenter`, `dragover`, then `drop`) or a ClipboardEvent `paste`,
 * dispatched at an element. Chromium's own trusted drag from the desktop cannot be scripted; the
 * page's listeners see the same event types, `dataTransfer.types` ("Files") and File objects.
 */
import type { Page } from "playwright-core";

export interface PageFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

interface Staged {
  __troveTransfer: DataTransfer;
}

/** Builds the page's DataTransfer holding `files`, for the next drag or paste. */
async function stage(page: Page, files: readonly PageFile[]): Promise<void> {
  const wire = files.map((file) => ({
    name: file.name,
    type: file.mimeType,
    base64: file.buffer.toString("base64"),
  }));
  await page.evaluate((wire) => {
    const transfer = new DataTransfer();
    for (const file of wire) {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], file.name, { type: file.type }));
    }
    (window as unknown as Staged).__troveTransfer = transfer;
  }, wire);
}

/** Starts a drag of `files` over the element at `selector`: dragenter and dragover, no drop yet. */
export async function dragFilesOver(page: Page, selector: string, files: readonly PageFile[]): Promise<void> {
  await stage(page, files);
  await dispatchDrag(page, selector, ["dragenter", "dragover"]);
}

/** Drops what `dragFilesOver` started dragging on the element at `selector`. */
export async function dropDraggedFiles(page: Page, selector: string): Promise<void> {
  await dispatchDrag(page, selector, ["drop"]);
}

function dispatchDrag(page: Page, selector: string, types: string[]): Promise<void> {
  return page.evaluate(
    ({ selector, types }) => {
      const transfer = (window as unknown as Staged).__troveTransfer;
      const target = document.querySelector(selector)!;
      for (const type of types) {
        target.dispatchEvent(
          new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }),
        );
      }
    },
    { selector, types },
  );
}

/** Pastes `files` into the focused element (the page's body when nothing has focus). */
export async function pasteFiles(page: Page, files: readonly PageFile[]): Promise<void> {
  await stage(page, files);
  await page.evaluate(() => {
    const transfer = (window as unknown as Staged).__troveTransfer;
    const target = document.activeElement ?? document.body;
    target.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  });
}
