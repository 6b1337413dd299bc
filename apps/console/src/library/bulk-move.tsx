import { MAX_FILES_PER_MOVE } from "@trove/schema";
import type { TroveClient } from "@trove/sdk";
import { useEffect, useRef, useState } from "react";
import type { SelectedFolder } from "./folder-tree.js";

/** The folder the picker is in: null is the workspace's root. */
type Place = SelectedFolder | null;

interface FolderRow {
  folder_no: string;
  name: string;
}

/**
 * Moves the selected files into a folder picked by browsing the tree a level at a time (the root
 * included), in one all-or-nothing request (POST /api/v1/files/move): a file or folder gone
 * meanwhile moves nothing, and the server's message says which.
 */
export function BulkMove(props: {
  client: TroveClient;
  selected: ReadonlySet<string>;
  move: (fileNos: string[], folderNo: string | null) => Promise<unknown>;
  onMoved: (moved: readonly string[], into: Place) => void;
}) {
  const { client, selected } = props;
  const [picking, setPicking] = useState(false);
  const [trail, setTrail] = useState<SelectedFolder[]>([]);
  const [children, setChildren] = useState<FolderRow[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const here: Place = trail.at(-1) ?? null;
  const count = selected.size;

  useEffect(() => {
    if (picking) heading.current?.focus();
  }, [picking]);
  useEffect(() => {
    if (!picking) return;
    let current = true;
    setChildren(null);
    client.folders
      .list({
        sort: "name_asc",
        ...(here === null ? {} : { parent_folder_no: here.folderNo }),
      })
      .then(
        (answer) => current && setChildren(answer.folders),
        (caught: unknown) => current && setError(caught instanceof Error ? caught.message : String(caught)),
      );
    return () => {
      current = false;
    };
  }, [client, picking, here]);

  const run = async () => {
    const fileNos = [...selected];
    // One request moves all or nothing, and it takes at most 100 files: more would need several
    // requests, which could leave the selection half moved.
    if (fileNos.length > MAX_FILES_PER_MOVE) {
      setError(`Select at most ${MAX_FILES_PER_MOVE} files to move at once (nothing was moved)`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await props.move(fileNos, here?.folderNo ?? null);
      setPicking(false);
      props.onMoved(fileNos, here);
    } catch (caught) {
      setError(`${caught instanceof Error ? caught.message : String(caught)} (nothing was moved)`);
    } finally {
      setBusy(false);
    }
  };

  if (count === 0 && !error) return null;
  return (
    <div className="bulk-move">
      {picking ? (
        <section
          className="folder-picker"
          aria-labelledby="folder-picker-title"
          onKeyDown={(event) => {
            if (event.key === "Escape") setPicking(false);
          }}
        >
          <h2 id="folder-picker-title" ref={heading} tabIndex={-1}>
            Move {count} {count === 1 ? "file" : "files"} to: {here === null ? "root" : here.path}
          </h2>
          <div className="folder-picker__bar">
            <button type="button" disabled={trail.length === 0} onClick={() => setTrail(trail.slice(0, -1))}>
              Up
            </button>
            <button type="button" className="primary" disabled={busy} onClick={() => void run()}>
              {busy ? "Moving…" : `Move here (${here === null ? "root" : here.path})`}
            </button>
            <button type="button" disabled={busy} onClick={() => setPicking(false)}>
              Cancel
            </button>
          </div>
          {children === null ? (
            <p className="loading">Loading…</p>
          ) : children.length === 0 ? (
            <p className="muted">No folders inside.</p>
          ) : (
            <ul className="folder-picker__list" aria-label="Folders inside">
              {children.map((folder) => (
                <li key={folder.folder_no}>
                  <button
                    type="button"
                    onClick={() =>
                      setTrail([
                        ...trail,
                        {
                          folderNo: folder.folder_no,
                          path: here === null ? folder.name : `${here.path}/${folder.name}`,
                        },
                      ])
                    }
                  >
                    {folder.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : count > 0 ? (
        <button
          type="button"
          onClick={() => {
            setError(null);
            setTrail([]);
            setPicking(true);
          }}
        >
          Move selected ({count}) to folder…
        </button>
      ) : null}
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
