import { formatBytes } from "../format/bytes.js";
import type { UploadView } from "./upload-view.js";

/**
 * For logs and pipes (stdout not a terminal): one plain line per event, no escape codes.
 *
 *   uploading photos/a.jpg (1.2 MiB)
 *   photos/big.bin: 8.0 MiB of 30.0 MiB (26%)
 *   resuming photos/big.bin: 8.0 MiB of 30.0 MiB already uploaded
 *   uploaded photos/a.jpg -> 1001 http://…/a.jpg
 *   Error: could not upload x.jpg: …            (on stderr)
 */
export function lineView(out: (line: string) => void, err: (line: string) => void): UploadView {
  const shown = new Map<string, number>();
  return {
    started(item) {
      out(`uploading ${item.display} (${formatBytes(item.size)})`);
    },
    resumed(item, bytes) {
      shown.set(item.path, bytes);
      out(`resuming ${item.display}: ${formatBytes(bytes)} of ${formatBytes(item.size)} already uploaded`);
    },
    progress(item, { confirmed, total }) {
      // Parts confirmed so far; the end is reported by `uploaded`.
      if (confirmed >= total || confirmed <= (shown.get(item.path) ?? 0)) return;
      shown.set(item.path, confirmed);
      const percent = Math.floor((confirmed / total) * 100);
      out(`${item.display}: ${formatBytes(confirmed)} of ${formatBytes(total)} (${percent}%)`);
    },
    uploaded(item, result) {
      shown.delete(item.path);
      out(`uploaded ${item.display} -> ${result.file_no} ${result.url}`);
    },
    failed(_item, sentence) {
      err(sentence);
    },
    close() {},
  };
}
