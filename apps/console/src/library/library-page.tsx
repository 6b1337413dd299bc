import "@trove/react/styles.css";
import { TroveProvider, TroveUploader } from "@trove/react";
import type { FileListItem, TroveClient } from "@trove/sdk";
import { useCallback, useMemo, useState } from "react";
import { DetailsPanel } from "../details/details-panel.js";
import { BulkDelete } from "./bulk-delete.js";
import { BulkMove } from "./bulk-move.js";
import { FileGrid, type ViewMode } from "./file-grid.js";
import type { FileQuery } from "./file-query.js";
import { FolderTree, type SelectedFolder } from "./folder-tree.js";
import { LibraryToolbar } from "./library-toolbar.js";
import { useFilePages } from "./use-file-pages.js";

/** A workspace session's media library: folders, files, upload, details. */
export function LibraryPage({ client }: { client: TroveClient }) {
  const [folder, setFolder] = useState<SelectedFolder | undefined>(undefined);
  const [search, setSearch] = useState({
    name: "",
    path: "",
    tags: "",
    sortField: "created_at",
    sortOrder: "desc",
  } as Omit<FileQuery, "folderNo">);
  const query = useMemo<FileQuery>(() => ({ ...search, folderNo: folder?.folderNo }), [search, folder]);
  const pages = useFilePages(client, query);
  const [view, setView] = useState<ViewMode>("grid");
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [active, setActive] = useState<FileListItem | undefined>(undefined);

  const toggle = useCallback((fileNo: string) => {
    setSelected((before) => {
      const after = new Set(before);
      if (!after.delete(fileNo)) after.add(fileNo);
      return after;
    });
  }, []);
  // Focus goes back to the file's tile, where the keyboard user opened the panel from.
  const closeDetails = () => {
    const fileNo = active?.file_no;
    setActive(undefined);
    if (fileNo) document.querySelector<HTMLElement>(`[data-file-no="${CSS.escape(fileNo)}"]`)?.focus();
  };
  const chooseFolder = (next: SelectedFolder | undefined) => {
    setFolder(next);
    setSelected(new Set());
  };

  return (
    // The provider uploads with the session client: the cookie and CSRF header, never a key.
    // `resume` off: a multipart session's part URLs are capabilities, not to be left in
    // localStorage on a shared admin machine.
    <TroveProvider client={client} resume={false}>
      <main className="library">
        <h1 className="visually-hidden">Media library</h1>
        <aside className="library__side">
          <FolderTree client={client} selected={folder} onSelect={chooseFolder} />
        </aside>
        <section className="library__main" aria-label="Files">
          <TroveUploader
            className="library__uploader"
            sources={["files"]}
            hint={folder ? `Into ${folder.path}` : "Into the workspace's root"}
            options={folder ? { folder: folder.path } : {}}
            onComplete={() => pages.reload()}
          />
          <LibraryToolbar
            query={query}
            onQuery={({ folderNo: _ignored, ...next }) => setSearch(next)}
            view={view}
            onView={setView}
            total={pages.total}
          />
          <div className="bulk-actions">
            <BulkMove
              client={client}
              selected={selected}
              move={(fileNos, folderNo) => client.files.move(fileNos, folderNo)}
              onMoved={(moved) => {
                setSelected((before) => new Set([...before].filter((fileNo) => !moved.includes(fileNo))));
                pages.reload();
              }}
            />
            <BulkDelete
              client={client}
              selected={selected}
              onDeleted={(deleted) => {
                setSelected((before) => new Set([...before].filter((fileNo) => !deleted.includes(fileNo))));
                if (active && deleted.includes(active.file_no)) setActive(undefined);
                pages.reload();
              }}
            />
          </div>
          {pages.error ? (
            <p role="alert" className="error">
              {pages.error}
            </p>
          ) : null}
          <FileGrid
            pages={pages}
            view={view}
            selected={selected}
            onToggle={toggle}
            activeFileNo={active?.file_no}
            onOpen={setActive}
          />
        </section>
        {active ? <DetailsPanel client={client} file={active} onClose={closeDetails} /> : null}
      </main>
    </TroveProvider>
  );
}
