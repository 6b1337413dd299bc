/**
 * Files dropped anywhere on the page and files pasted into it. `onDragging` says when files are
 * over the page (for an overlay); drags of text or links are left to the browser.
 */
export function watchPageSources(handlers: {
  onDragging(dragging: boolean): void;
  onFiles(files: File[]): void;
}): void {
  const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes("Files") ?? false;
  // dragenter/dragleave fire for each element crossed: the page is left when they balance.
  let depth = 0;
  window.addEventListener("dragenter", (event) => {
    if (!carriesFiles(event)) return;
    depth++;
    handlers.onDragging(true);
  });
  window.addEventListener("dragleave", (event) => {
    if (!carriesFiles(event)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) handlers.onDragging(false);
  });
  window.addEventListener("dragover", (event) => {
    if (carriesFiles(event)) event.preventDefault(); // allows the drop
  });
  window.addEventListener("drop", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault(); // or the browser opens the file in place of the page
    depth = 0;
    handlers.onDragging(false);
    handlers.onFiles(Array.from(event.dataTransfer?.files ?? []));
  });
  window.addEventListener("paste", (event) => {
    const files = Array.from(event.clipboardData?.files ?? []);
    if (files.length === 0) return;
    event.preventDefault();
    handlers.onFiles(files);
  });
}
