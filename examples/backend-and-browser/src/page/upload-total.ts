/** The line above the rows: how many files, and bytes sent of all of them together. */
import { formatBytes } from "./format-transfer.js";

export function uploadTotal(element: HTMLElement) {
  const files = new Map<object, { loaded: number; total: number }>();
  const render = () => {
    let loaded = 0;
    let total = 0;
    for (const file of files.values()) {
      loaded += file.loaded;
      total += file.total;
    }
    element.hidden = files.size === 0;
    element.textContent = `${files.size} ${files.size === 1 ? "file" : "files"} · ${formatBytes(loaded)} of ${formatBytes(total)}`;
  };
  return {
    set(row: object, loaded: number, total: number): void {
      files.set(row, { loaded, total });
      render();
    },
    remove(row: object): void {
      files.delete(row);
      render();
    },
  };
}
