import { FILE_SORT_FIELDS, SORT_ORDERS } from "@trove/schema";
import { useEffect, useState } from "react";
import type { ViewMode } from "./file-grid.js";
import type { FileQuery } from "./file-query.js";

const FIELD_LABELS: Record<FileQuery["sortField"], string> = {
  created_at: "Uploaded",
  updated_at: "Updated",
  name: "Name",
  file_size: "Size",
};

const SEARCH_PAUSE_MS = 250;

type TextFilter = "name" | "path" | "tags";

/** Search by name, path and tags, sort field and order, grid or list. */
export function LibraryToolbar(props: {
  query: FileQuery;
  onQuery: (query: FileQuery) => void;
  view: ViewMode;
  onView: (view: ViewMode) => void;
  total: number | null;
}) {
  const { query, onQuery } = props;
  // The text filters are sent once typing pauses, not on every key: each change restarts the list.
  const [typed, setTyped] = useState({ name: query.name, path: query.path, tags: query.tags });
  useEffect(() => {
    if (typed.name === query.name && typed.path === query.path && typed.tags === query.tags) return;
    const timer = setTimeout(() => onQuery({ ...query, ...typed }), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed, query, onQuery]);
  const search = (filter: TextFilter, label: string, maxLength: number, placeholder?: string) => (
    <label className="toolbar__search">
      <span>{label}</span>
      <input
        type="search"
        value={typed[filter]}
        maxLength={maxLength}
        placeholder={placeholder}
        onChange={(event) => {
          const value = event.target.value;
          setTyped((before) => ({ ...before, [filter]: value }));
        }}
      />
    </label>
  );
  return (
    <div className="toolbar">
      {search("name", "Search by name", 255)}
      {search("path", "Search by path", 1024, "folder/sub")}
      {search("tags", "Search by tags", 2048, "tag1, tag2")}
      <label>
        <span>Sort by</span>
        <select
          value={query.sortField}
          onChange={(event) => onQuery({ ...query, sortField: event.target.value as FileQuery["sortField"] })}
        >
          {FILE_SORT_FIELDS.map((field) => (
            <option key={field} value={field}>
              {FIELD_LABELS[field]}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Order</span>
        <select
          value={query.sortOrder}
          onChange={(event) => onQuery({ ...query, sortOrder: event.target.value as FileQuery["sortOrder"] })}
        >
          {SORT_ORDERS.map((order) => (
            <option key={order} value={order}>
              {order === "asc" ? "Ascending" : "Descending"}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="toolbar__view">
        <legend>View</legend>
        {(["grid", "list"] as const).map((mode) => (
          <button
            key={mode}
            type="button"
            aria-pressed={props.view === mode}
            onClick={() => props.onView(mode)}
          >
            {mode === "grid" ? "Grid" : "List"}
          </button>
        ))}
      </fieldset>
      <output className="toolbar__count" aria-live="polite">
        {props.total === null ? "" : `${props.total} ${props.total === 1 ? "file" : "files"}`}
      </output>
    </div>
  );
}
