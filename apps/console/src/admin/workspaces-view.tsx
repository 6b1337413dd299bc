import type { AdminWorkspace } from "@trove/schema";
import type { TroveAdminClient } from "@trove/sdk/admin";
import { type FormEvent, useCallback, useId, useState } from "react";
import { ErrorLine } from "./error-line.js";
import { errorText } from "./error-text.js";
import { formatBytes } from "./format-bytes.js";
import { useAdminData } from "./use-admin-data.js";
import { workspaceHref } from "./use-hash-route.js";

/** Every workspace with its usage and quotas; create, disable or enable, delete. */
export function WorkspacesView({ api }: { api: TroveAdminClient }) {
  const read = useCallback(async () => {
    // Pages of 100 until the total is reached: an admin table of a few hundred workspaces.
    const rows: AdminWorkspace[] = [];
    for (let page = 1; ; page += 1) {
      const answer = await api.workspaces.list({ page, limit: 100 });
      rows.push(...answer.workspaces);
      if (answer.workspaces.length === 0 || rows.length >= answer.total) return rows;
    }
  }, [api]);
  const { data: workspaces, error, reload: load, act } = useAdminData(read);
  const [deleting, setDeleting] = useState<AdminWorkspace | null>(null);
  const total = workspaces?.length ?? 0;

  const toggle = (workspace: AdminWorkspace) =>
    act(() => api.workspaces.update(workspace.workspace_no, { disabled: workspace.disabled_at === null }));

  return (
    <section className="admin__section" aria-labelledby="workspaces-title">
      <h1 id="workspaces-title">Workspaces</h1>
      <CreateWorkspaceForm api={api} onCreated={load} />
      <ErrorLine error={error} />
      {workspaces === null ? (
        <p className="loading">Loading…</p>
      ) : (
        <div className="admin__table-wrap">
          <table className="admin__table">
            <caption>
              {total} {total === 1 ? "workspace" : "workspaces"}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Number</th>
                <th scope="col">Files</th>
                <th scope="col">Storage</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {workspaces.map((workspace) => (
                <tr key={workspace.workspace_no} data-workspace={workspace.workspace_no}>
                  <th scope="row">
                    <a href={workspaceHref(workspace.workspace_no)}>{workspace.name}</a>
                  </th>
                  <td>
                    <code>{workspace.workspace_no}</code>
                  </td>
                  <td className="admin__files">
                    {workspace.file_count}
                    {workspace.max_files === null ? "" : ` / ${workspace.max_files}`}
                  </td>
                  <td>
                    {formatBytes(workspace.storage_bytes)}
                    {workspace.max_storage_bytes === null
                      ? ""
                      : ` / ${formatBytes(workspace.max_storage_bytes)}`}
                  </td>
                  <td>{workspace.disabled_at === null ? "Active" : "Disabled"}</td>
                  <td className="admin__actions">
                    <button
                      type="button"
                      onClick={() => void toggle(workspace)}
                      aria-label={`${workspace.disabled_at === null ? "Disable" : "Enable"} ${workspace.name}`}
                    >
                      {workspace.disabled_at === null ? "Disable" : "Enable"}
                    </button>
                    <button
                      type="button"
                      className="danger"
                      onClick={() => setDeleting(workspace)}
                      aria-label={`Delete ${workspace.name}`}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {deleting ? (
        <DeleteWorkspaceDialog
          api={api}
          workspace={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null);
            void load();
          }}
        />
      ) : null}
    </section>
  );
}

function CreateWorkspaceForm({ api, onCreated }: { api: TroveAdminClient; onCreated: () => Promise<void> }) {
  const nameId = useId();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.workspaces.create({ name });
      setName("");
      await onCreated();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="admin__form" onSubmit={(event) => void submit(event)} aria-label="Create a workspace">
      <label htmlFor={nameId}>New workspace name</label>
      <input
        id={nameId}
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        maxLength={255}
      />
      <button type="submit" disabled={busy || name.trim() === ""}>
        {busy ? "Creating…" : "Create workspace"}
      </button>
      <ErrorLine error={error} />
    </form>
  );
}

/** Deleting is confirmed by typing the workspace's number, so a slip of the mouse deletes nothing. */
function DeleteWorkspaceDialog({
  api,
  workspace,
  onClose,
  onDeleted,
}: {
  api: TroveAdminClient;
  workspace: AdminWorkspace;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const inputId = useId();
  // The Delete button that opened the dialog gets focus back when it is cancelled.
  const [opener] = useState(() => document.activeElement);
  const cancel = () => {
    onClose();
    if (opener instanceof HTMLElement) opener.focus();
  };
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      // A workspace with files goes through the job queue (disabled now, removed after).
      await api.workspaces.delete(workspace.workspace_no, { force: workspace.file_count > 0 });
      onDeleted();
    } catch (caught) {
      setError(errorText(caught));
      setBusy(false);
    }
  };
  return (
    <form
      role="alertdialog"
      aria-labelledby={`${inputId}-title`}
      className="admin__confirm"
      onSubmit={(event) => void run(event)}
      onKeyDown={(event) => {
        if (event.key === "Escape") cancel();
      }}
    >
      <h2 id={`${inputId}-title`}>Delete workspace {workspace.name}?</h2>
      <p>
        Its {workspace.file_count} {workspace.file_count === 1 ? "file" : "files"}, keys and webhooks are
        removed for good. Type its number (<code>{workspace.workspace_no}</code>) to confirm.
      </p>
      <label htmlFor={inputId}>Workspace number</label>
      {/* biome-ignore lint/a11y/noAutofocus: the dialog opens for this one answer */}
      <input id={inputId} value={typed} onChange={(event) => setTyped(event.target.value)} autoFocus />
      <button type="submit" className="danger" disabled={busy || typed !== workspace.workspace_no}>
        {busy ? "Deleting…" : "Delete workspace"}
      </button>
      <button type="button" onClick={cancel} disabled={busy}>
        Cancel
      </button>
      <ErrorLine error={error} />
    </form>
  );
}
