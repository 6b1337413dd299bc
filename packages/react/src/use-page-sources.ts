/**
 * Files dropped anywhere on the page, and files pasted while the page has focus: for an uploader
 * with `dropTarget="page"`. Listeners go on `window` from an effect (nothing at render, so server
 * rendering is untouched) and come off on unmount. Only drags that carry files are taken: text or
 * a link dragged within the page behaves as before.
 */
import { useEffect, useRef, useState } from "react";

const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes("Files") ?? false;

/** Whether files are being dragged over the page; `onFiles` gets what is dropped or pasted. */
export function usePageSources(enabled: boolean, onFiles: (files: File[]) => void): boolean {
  const [dragging, setDragging] = useState(false);
  const latest = useRef(onFiles);
  latest.current = onFiles;

  useEffect(() => {
    if (!enabled) return;
    // dragenter/dragleave fire for every element crossed; the page is left when they balance.
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth++;
      setDragging(true);
    };
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault(); // allows the drop
      if (event.dataTransfer) event.dataTransfer.dropEffect = "copy";
    };
    const leave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      depth = 0;
      setDragging(false);
      if (!carriesFiles(event) || event.defaultPrevented) return;
      event.preventDefault(); // or the browser opens the file in place of the page
      latest.current(Array.from(event.dataTransfer?.files ?? []));
    };
    const paste = (event: ClipboardEvent) => {
      const files = Array.from(event.clipboardData?.files ?? []);
      if (files.length === 0 || event.defaultPrevented) return;
      event.preventDefault();
      latest.current(files);
    };
    window.addEventListener("dragenter", enter);
    window.addEventListener("dragover", over);
    window.addEventListener("dragleave", leave);
    window.addEventListener("drop", drop);
    window.addEventListener("paste", paste);
    return () => {
      window.removeEventListener("dragenter", enter);
      window.removeEventListener("dragover", over);
      window.removeEventListener("dragleave", leave);
      window.removeEventListener("drop", drop);
      window.removeEventListener("paste", paste);
      setDragging(false);
    };
  }, [enabled]);

  return dragging;
}
