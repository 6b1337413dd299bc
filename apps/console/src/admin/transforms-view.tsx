import { safeParseTransform } from "@trove/schema";
import { deliveryUrl } from "@trove/sdk";
import type { TroveAdminClient } from "@trove/sdk/admin";
import { type FormEvent, useCallback, useId, useState } from "react";
import { ErrorLine } from "./error-line.js";
import { errorText } from "./error-text.js";
import { InlineConfirm } from "./inline-confirm.js";
import { useAdminData } from "./use-admin-data.js";

/**
 * The delivery host a server serves by default (TROVE_ASSETS_PREFIX on its own origin). A server
 * with another TROVE_ASSETS_URL is typed in by the admin; the console's CSP allows that origin.
 */
const DEFAULT_DELIVERY_BASE = `${window.location.origin}/assets`;

/** A workspace's named transforms (`t_<name>`): list, create or edit (checked as typed), delete. */
export function TransformsView({ api, workspaceNo }: { api: TroveAdminClient; workspaceNo: string }) {
  const read = useCallback(() => api.transforms.list(workspaceNo), [api, workspaceNo]);
  const { data: transforms, error, reload, act } = useAdminData(read);
  const [editing, setEditing] = useState<{ name: string; transform: string } | null>(null);

  return (
    <section aria-labelledby="transforms-title" className="admin__panel">
      <h2 id="transforms-title">Named transforms</h2>
      <TransformForm
        key={editing?.name ?? ""}
        api={api}
        workspaceNo={workspaceNo}
        initial={editing}
        onSaved={() => {
          setEditing(null);
          void reload();
        }}
        onCancel={() => setEditing(null)}
      />
      <ErrorLine error={error} />
      {transforms === null ? (
        <p className="loading">Loading…</p>
      ) : transforms.length === 0 ? (
        <p className="muted">No named transforms yet.</p>
      ) : (
        <div className="admin__table-wrap">
          <table className="admin__table">
            <caption>Named transforms</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Transform</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {transforms.map((named) => (
                <tr key={named.name}>
                  <th scope="row">
                    <code>t_{named.name}</code>
                  </th>
                  <td>
                    <code>{named.transform}</code>
                  </td>
                  <td className="admin__actions">
                    <button
                      type="button"
                      onClick={() => setEditing({ name: named.name, transform: named.transform })}
                      aria-label={`Edit t_${named.name}`}
                    >
                      Edit
                    </button>
                    <InlineConfirm
                      label="Delete"
                      accessibleName={`Delete t_${named.name}`}
                      question={`Delete t_${named.name}? URLs that use it stop working.`}
                      confirmText="Confirm delete"
                      onConfirm={() => act(() => api.transforms.remove(workspaceNo, named.name))}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * Name and transform, the transform checked as it is typed by the shared grammar (the parser the
 * server runs), and previewed on a file path the admin types, through the delivery host.
 */
function TransformForm({
  api,
  workspaceNo,
  initial,
  onSaved,
  onCancel,
}: {
  api: TroveAdminClient;
  workspaceNo: string;
  initial: { name: string; transform: string } | null;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [name, setName] = useState(initial?.name ?? "");
  const [text, setText] = useState(initial?.transform ?? "");
  const [path, setPath] = useState("");
  const [base, setBase] = useState(DEFAULT_DELIVERY_BASE);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const parsed = text === "" ? null : safeParseTransform(text);
  const problem = parsed && !parsed.success ? parsed.error.message : null;

  let preview: string | null = null;
  let previewProblem: string | null = null;
  if (parsed?.success && path.trim() !== "") {
    try {
      preview = deliveryUrl(`${workspaceNo}/${path.trim().replace(/^\/+/, "")}`, text, base);
    } catch (caught) {
      previewProblem = errorText(caught);
    }
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await api.transforms.set(workspaceNo, name.trim(), text);
      setName("");
      setText("");
      onSaved();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="admin__form admin__form--grid"
      onSubmit={(event) => void submit(event)}
      aria-label={initial ? `Edit t_${initial.name}` : "Create a named transform"}
    >
      <label htmlFor={`${id}-name`}>Transform name (without t_)</label>
      <input
        id={`${id}-name`}
        value={name}
        onChange={(event) => setName(event.target.value)}
        readOnly={initial !== null}
        required
        maxLength={64}
      />
      <label htmlFor={`${id}-transform`}>Transform</label>
      <input
        id={`${id}-transform`}
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="w_400,h_300,c_fill"
        aria-invalid={problem !== null}
        aria-describedby={problem ? `${id}-problem` : undefined}
        required
      />
      {problem ? (
        <p id={`${id}-problem`} className="error">
          {problem}
        </p>
      ) : null}
      <label htmlFor={`${id}-path`}>Preview on file path</label>
      <input
        id={`${id}-path`}
        value={path}
        onChange={(event) => setPath(event.target.value)}
        placeholder="holidays/sunset.png"
      />
      <label htmlFor={`${id}-base`}>Delivery host URL</label>
      <input id={`${id}-base`} type="url" value={base} onChange={(event) => setBase(event.target.value)} />
      <button type="submit" disabled={busy || parsed?.success !== true || name.trim() === ""}>
        {busy ? "Saving…" : initial ? "Save transform" : "Create transform"}
      </button>
      {initial ? (
        <button type="button" onClick={onCancel}>
          Cancel editing
        </button>
      ) : null}
      {previewProblem ? <p className="error">{previewProblem}</p> : null}
      {preview ? (
        <figure className="admin__preview">
          <img src={preview} alt={`Preview of ${path} with ${text}`} />
          <figcaption>
            <code>{preview}</code>
          </figcaption>
        </figure>
      ) : null}
      <ErrorLine error={error} />
    </form>
  );
}
