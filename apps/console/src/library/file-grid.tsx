import { useVirtualizer } from "@tanstack/react-virtual";
import type { FileListItem } from "@trove/sdk";
import { useEffect, useRef } from "react";
import { formatBytes } from "./format-bytes.js";
import { useColumns } from "./use-columns.js";
import type { FilePages } from "./use-file-pages.js";

export type ViewMode = "grid" | "list";

const TILE = { grid: { width: 180, height: 210 }, list: { width: Number.POSITIVE_INFINITY, height: 56 } };

/**
 * The files, virtualized by rows (@tanstack/react-virtual): only the rows on screen (and a few
 * around) are in the DOM, and only their pages are fetched, so 100,000 files scroll like 100.
 */
export function FileGrid(props: {
  pages: FilePages;
  view: ViewMode;
  selected: ReadonlySet<string>;
  onToggle: (fileNo: string) => void;
  activeFileNo: string | undefined;
  onOpen: (file: FileListItem) => void;
}) {
  const { pages, view } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const measured = useColumns(scroller, TILE.grid.width);
  const columns = view === "grid" ? measured : 1;
  const total = pages.total ?? 0;
  const rows = Math.ceil(total / columns);
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scroller.current,
    estimateSize: () => TILE[view].height,
    overscan: 4,
  });
  const items = virtualizer.getVirtualItems();
  const firstRow = items[0]?.index ?? 0;
  const lastRow = items[items.length - 1]?.index ?? -1;

  useEffect(() => {
    pages.ensure(firstRow * columns, Math.min(total, (lastRow + 1) * columns) - 1);
  }, [pages.ensure, firstRow, lastRow, columns, total]);

  return (
    <div ref={scroller} className={`file-grid file-grid--${view}`} tabIndex={-1}>
      {pages.total === 0 ? <p className="muted file-grid__empty">No files</p> : null}
      <ul className="file-grid__inner" aria-label="Files" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((row) => (
          <li
            key={row.key}
            className="file-grid__row"
            ref={virtualizer.measureElement}
            data-index={row.index}
            // React sets `style` through the CSSOM (element.style), which the CSP's
            // `style-src 'self'` allows; only style attributes written in HTML are refused.
            style={{ transform: `translateY(${row.start}px)` }}
          >
            {Array.from({ length: columns }, (_, column) => {
              const index = row.index * columns + column;
              if (index >= total) return null;
              const file = pages.at(index);
              return file ? (
                <FileTile
                  key={file.file_no}
                  file={file}
                  checked={props.selected.has(file.file_no)}
                  active={props.activeFileNo === file.file_no}
                  onToggle={props.onToggle}
                  onOpen={props.onOpen}
                />
              ) : (
                <div key={`loading-${index}`} className="file-tile file-tile--loading" aria-hidden="true" />
              );
            })}
          </li>
        ))}
      </ul>
    </div>
  );
}

function FileTile(props: {
  file: FileListItem;
  checked: boolean;
  active: boolean;
  onToggle: (fileNo: string) => void;
  onOpen: (file: FileListItem) => void;
}) {
  const { file } = props;
  return (
    <div
      className={`file-tile${props.checked ? " file-tile--checked" : ""}${props.active ? " file-tile--active" : ""}`}
    >
      <input
        type="checkbox"
        className="file-tile__check"
        checked={props.checked}
        onChange={() => props.onToggle(file.file_no)}
        aria-label={`Select ${file.name}`}
      />
      <button
        type="button"
        className="file-tile__open"
        data-file-no={file.file_no}
        onClick={() => props.onOpen(file)}
        aria-pressed={props.active}
      >
        {file.thumbnail ? (
          <img className="file-tile__thumb" src={file.thumbnail} alt="" loading="lazy" decoding="async" />
        ) : (
          <span className="file-tile__thumb file-tile__thumb--none" aria-hidden="true">
            {file.extension.toUpperCase()}
          </span>
        )}
        <span className="file-tile__name">{file.name}</span>
        <span className="file-tile__meta muted">
          {file.format} · {formatBytes(file.file_size)}
        </span>
      </button>
    </div>
  );
}
