import type { TroveClient } from "@trove/sdk";
import { useEffect, useState } from "react";

/** A folder the library shows: its number and its slash-separated path (the upload `folder` option). */
export interface SelectedFolder {
  folderNo: string;
  path: string;
}

interface FolderRow {
  folder_no: string;
  name: string;
  total_items: number;
}

/**
 * The workspace's folders, each level fetched when it is opened (GET /api/v1/folders with
 * parent_folder_no), so a workspace with thousands of folders loads only what is looked at.
 * "All files" (no folder) is at the top. Buttons and native disclosure: keyboard usable as is.
 */
export function FolderTree(props: {
  client: TroveClient;
  selected: SelectedFolder | undefined;
  onSelect: (folder: SelectedFolder | undefined) => void;
}) {
  return (
    <nav className="folder-tree" aria-label="Folders">
      <h2 className="visually-hidden">Folders</h2>
      <button
        type="button"
        className="folder-tree__item"
        aria-current={props.selected === undefined ? "true" : undefined}
        onClick={() => props.onSelect(undefined)}
      >
        All files
      </button>
      <FolderLevel {...props} parent={undefined} />
    </nav>
  );
}

function FolderLevel(props: {
  client: TroveClient;
  parent: SelectedFolder | undefined;
  selected: SelectedFolder | undefined;
  onSelect: (folder: SelectedFolder | undefined) => void;
}) {
  const { client, parent } = props;
  const parentNo = parent?.folderNo;
  const [folders, setFolders] = useState<FolderRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    client.folders
      .list({ sort: "name_asc", ...(parentNo === undefined ? {} : { parent_folder_no: parentNo }) })
      .then(
        (answer) => current && setFolders(answer.folders),
        (caught: unknown) => current && setError(caught instanceof Error ? caught.message : String(caught)),
      );
    return () => {
      current = false;
    };
  }, [client, parentNo]);

  if (error) return <p className="error">{error}</p>;
  if (folders === null) return <p className="muted">Loading folders…</p>;
  if (folders.length === 0) return parent ? null : <p className="muted">No folders yet</p>;
  return (
    <ul>
      {folders.map((folder) => (
        <FolderNode
          key={folder.folder_no}
          {...props}
          folder={{
            folderNo: folder.folder_no,
            path: parent ? `${parent.path}/${folder.name}` : folder.name,
          }}
          name={folder.name}
          count={folder.total_items}
        />
      ))}
    </ul>
  );
}

function FolderNode(props: {
  client: TroveClient;
  folder: SelectedFolder;
  name: string;
  count: number;
  selected: SelectedFolder | undefined;
  onSelect: (folder: SelectedFolder | undefined) => void;
}) {
  const [open, setOpen] = useState(false);
  const isSelected = props.selected?.folderNo === props.folder.folderNo;
  return (
    <li>
      <span className="folder-tree__row">
        <button
          type="button"
          className="folder-tree__toggle"
          aria-expanded={open}
          aria-label={`${open ? "Collapse" : "Expand"} ${props.name}`}
          onClick={() => setOpen(!open)}
        >
          {open ? "▾" : "▸"}
        </button>
        <button
          type="button"
          className="folder-tree__item"
          aria-current={isSelected ? "true" : undefined}
          onClick={() => props.onSelect(props.folder)}
        >
          {props.name} <span className="muted">({props.count})</span>
        </button>
      </span>
      {open ? (
        <FolderLevel
          client={props.client}
          parent={props.folder}
          selected={props.selected}
          onSelect={props.onSelect}
        />
      ) : null}
    </li>
  );
}
