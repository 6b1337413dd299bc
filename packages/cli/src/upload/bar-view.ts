import { MultiBar, type SingleBar } from "cli-progress";
import { formatBytes } from "../format/bytes.js";
import type { UploadItem } from "./collect-files.js";
import type { UploadView } from "./upload-view.js";

const LABEL_WIDTH = 32;

function label(text: string): string {
  return text.length <= LABEL_WIDTH ? text.padEnd(LABEL_WIDTH) : `…${text.slice(-(LABEL_WIDTH - 1))}`;
}

/**
 * For a terminal: an overall bar on top and one bar per file in flight (cli-progress MultiBar).
 * A finished file's bar is replaced by a line above the bars, so a directory of thousands of
 * files keeps the screen to `concurrency` + 1 bars.
 */
export function barView(items: UploadItem[], stream: NodeJS.WriteStream): UploadView {
  const totalBytes = items.reduce((sum, item) => sum + item.size, 0);
  const multibar = new MultiBar({
    stream,
    format: " {label} {bar} {percentage}% | {bytes}",
    barCompleteChar: "█",
    barIncompleteChar: "░",
    barsize: 24,
    hideCursor: true,
    clearOnComplete: false,
    stopOnComplete: false,
    autopadding: true,
    gracefulExit: false,
  });
  const bars = new Map<string, SingleBar>();
  const loaded = new Map<string, number>();
  let finished = 0;
  let sum = 0;
  const overallPayload = () => ({
    label: label(`${finished} of ${items.length} files`),
    bytes: `${formatBytes(sum)} / ${formatBytes(totalBytes)}`,
  });
  const overall = multibar.create(Math.max(1, totalBytes), 0, overallPayload());

  const setLoaded = (item: UploadItem, bytes: number) => {
    sum += bytes - (loaded.get(item.path) ?? 0);
    loaded.set(item.path, bytes);
    overall.update(sum, overallPayload());
    bars.get(item.path)?.update(bytes, { label: label(item.display), bytes: bytesOf(bytes, item.size) });
  };
  const bytesOf = (value: number, total: number) => `${formatBytes(value)} / ${formatBytes(total)}`;
  const end = (item: UploadItem) => {
    const bar = bars.get(item.path);
    if (bar) {
      multibar.remove(bar);
      bars.delete(item.path);
    }
    finished += 1;
    overall.update(sum, overallPayload());
  };

  return {
    started(item) {
      bars.set(
        item.path,
        multibar.create(Math.max(1, item.size), 0, {
          label: label(item.display),
          bytes: bytesOf(0, item.size),
        }),
      );
    },
    resumed(item, bytes) {
      multibar.log(`resuming ${item.display}: ${formatBytes(bytes)} already uploaded\n`);
    },
    progress(item, progress) {
      setLoaded(item, progress.loaded);
    },
    uploaded(item, result) {
      // Logged lines are written on the next redraw, which removing the bar triggers.
      multibar.log(`✔ ${item.display} → ${result.file_no} ${result.url}\n`);
      setLoaded(item, item.size);
      end(item);
    },
    failed(item, sentence) {
      multibar.log(`✖ ${sentence}\n`);
      if (item) {
        // Its bytes did not make it: take them out of the overall bar.
        setLoaded(item, 0);
        end(item);
      }
    },
    close() {
      // stop() draws the bars one last time but not what is still waiting to be logged.
      multibar.update();
      multibar.stop();
    },
  };
}
