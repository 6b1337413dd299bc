import type { Source } from "@trove/schema";
import type { TroveClient } from "@trove/sdk";
import { useCallback, useEffect, useState } from "react";
import { CopyButton } from "../details/copy-button.js";
import { SourceDelete } from "./source-delete.js";
import { sourceDeliveryUrl, useAssetsUrl } from "./source-delivery-url.js";
import { SOURCE_TYPE_LABELS } from "./source-fields.js";
import { SourceForm } from "./source-form.js";
import { SourceTest } from "./source-test.js";

/** The API's largest page: a workspace's sources fit one page in practice; more pages are read on. */
const SOURCES_PAGE = 100;

type Editing = { mode: "none" } | { mode: "create" } | { mode: "edit"; source: Source };

/** Settings > Sources: the workspace's origins, created, edited, tested and deleted here. */
export function SourcesPage({ client, workspaceNo }: { client: TroveClient; workspaceNo: string }) {
  const [sources, setSources] = useState<Source[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>({ mode: "none" });
  const [notice, setNotice] = useState<string | null>(null);
  const assetsUrl = useAssetsUrl(client);

  const reload = useCallback(async () => {
    try {
      const all: Source[] = [];
      for await (const source of client.sources.listAll({ limit: SOURCES_PAGE })) all.push(source);
      setSources(all);
      setError(null);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, [client]);
  useEffect(() => {
    void reload();
  }, [reload]);

  const saved = (source: Source) => {
    setNotice(`Saved source ${source.name}`);
    setEditing({ mode: "none" });
    void reload();
  };

  return (
    <main className="page">
      <h1>Sources</h1>
      <p className="muted">
        A source is an origin Trove serves and transforms objects from: an S3-compatible bucket, an Azure
        container, a Google Cloud Storage bucket or a web server.
      </p>
      <output className="notice" aria-live="polite">
        {notice ?? ""}
      </output>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {editing.mode === "none" ? (
        <button type="button" className="primary" onClick={() => setEditing({ mode: "create" })}>
          New source
        </button>
      ) : (
        <SourceForm
          key={editing.mode === "edit" ? editing.source.id : "new"}
          client={client}
          {...(editing.mode === "edit" ? { source: editing.source } : {})}
          onSaved={saved}
          onCancel={() => setEditing({ mode: "none" })}
        />
      )}
      {sources === null ? (
        error ? null : (
          <p className="loading">Loading…</p>
        )
      ) : sources.length === 0 ? (
        <p>No sources yet.</p>
      ) : (
        <ul className="source-list" aria-label="Sources">
          {sources.map((source) => {
            const url = sourceDeliveryUrl(assetsUrl, source.workspace_no ?? workspaceNo, source.name);
            return (
              <li key={source.id} className="source" aria-labelledby={`source-${source.id}`}>
                <h2 id={`source-${source.id}`} className="source__name">
                  {source.name}
                </h2>
                <p className="muted">
                  {SOURCE_TYPE_LABELS[source.type]}
                  {source.is_active ? "" : " · inactive"}
                </p>
                <p className="url">
                  <span className="muted">Delivery URL </span>
                  <output className="url__text">{url}</output>{" "}
                  <CopyButton text={url} label={`Copy the delivery URL of ${source.name}`} />
                </p>
                <div className="source__actions">
                  <button
                    type="button"
                    aria-label={`Edit ${source.name}`}
                    onClick={() => setEditing({ mode: "edit", source })}
                  >
                    Edit
                  </button>
                  <SourceTest source={source} test={(sourceId) => client.sources.test(sourceId)} />
                  <SourceDelete
                    client={client}
                    source={source}
                    onDeleted={() => {
                      setNotice(`Deleted source ${source.name}`);
                      if (editing.mode === "edit" && editing.source.id === source.id)
                        setEditing({ mode: "none" });
                      void reload();
                    }}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </main>
  );
}
