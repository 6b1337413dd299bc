import { type CreatedKey, type CreateKeyBody, uploadPolicySchema } from "@trove/schema";
import type { TroveAdminClient } from "@trove/sdk/admin";
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { CopyButton } from "../details/copy-button.js";
import { ErrorLine } from "./error-line.js";
import { errorText } from "./error-text.js";
import { InlineConfirm } from "./inline-confirm.js";
import { useAdminData } from "./use-admin-data.js";

/** A workspace's keys: listed by prefix (never a secret), created (secret shown once), revoked. */
export function KeysView({ api, workspaceNo }: { api: TroveAdminClient; workspaceNo: string }) {
  const read = useCallback(() => api.keys.list(workspaceNo), [api, workspaceNo]);
  const { data: keys, error, reload, act } = useAdminData(read);
  const [created, setCreated] = useState<CreatedKey | null>(null);

  return (
    <section aria-labelledby="keys-title" className="admin__panel">
      <h2 id="keys-title">API keys</h2>
      {created ? <NewKey created={created} onDone={() => setCreated(null)} /> : null}
      <CreateKeyForm
        api={api}
        workspaceNo={workspaceNo}
        onCreated={(key) => {
          setCreated(key);
          void reload();
        }}
      />
      <ErrorLine error={error} />
      {keys === null ? (
        <p className="loading">Loading…</p>
      ) : keys.length === 0 ? (
        <p className="muted">No keys yet.</p>
      ) : (
        <div className="admin__table-wrap">
          <table className="admin__table">
            <caption>Keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Type</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id} data-key-id={key.id}>
                  <th scope="row">{key.name ?? "(unnamed)"}</th>
                  <td>
                    <code>{key.prefix}</code>
                  </td>
                  <td>{key.type}</td>
                  <td>{key.expires_at ? new Date(key.expires_at).toLocaleString() : "Never"}</td>
                  <td>{key.last_used_at ? new Date(key.last_used_at).toLocaleString() : "Never"}</td>
                  <td>{key.revoked_at ? "Revoked" : "Active"}</td>
                  <td className="admin__actions">
                    {key.revoked_at ? null : (
                      <InlineConfirm
                        label="Revoke"
                        accessibleName={`Revoke ${key.name ?? key.prefix}`}
                        question="Revoke? Requests with it are refused at once."
                        confirmText="Confirm revoke"
                        onConfirm={() => act(() => api.keys.revoke(workspaceNo, key.id))}
                      />
                    )}
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

/** The new key's secret, in this view's state only: gone on Done or reload, never stored. */
function NewKey({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="admin__secret" aria-labelledby="new-key-title">
      <h3 id="new-key-title" tabIndex={-1} ref={heading}>
        New key {created.name ?? created.prefix}
      </h3>
      <p className="admin__warning">Copy it now: it will not be shown again.</p>
      <output className="admin__secret-value" aria-label="The new key">
        {created.key}
      </output>
      <CopyButton text={created.key} label="Copy the new key" />
      <button type="button" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

function CreateKeyForm({
  api,
  workspaceNo,
  onCreated,
}: {
  api: TroveAdminClient;
  workspaceNo: string;
  onCreated: (key: CreatedKey) => void;
}) {
  const id = useId();
  const [name, setName] = useState("");
  const [type, setType] = useState<"private" | "public">("private");
  const [expires, setExpires] = useState("");
  const [policy, setPolicy] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const body: CreateKeyBody = { type };
    if (name.trim() !== "") body.name = name.trim();
    if (expires !== "") {
      const at = new Date(expires);
      if (Number.isNaN(at.getTime())) return setError("The expiry is not a date");
      body.expires_at = at.toISOString();
    }
    if (type === "public" && policy.trim() !== "") {
      let json: unknown;
      try {
        json = JSON.parse(policy);
      } catch {
        return setError("The upload policy is not JSON");
      }
      const checked = uploadPolicySchema.safeParse(json);
      if (!checked.success) {
        return setError(`Upload policy: ${checked.error.issues.map((issue) => issue.message).join("; ")}`);
      }
      body.policy = checked.data;
    }
    setBusy(true);
    try {
      const key = await api.keys.create(workspaceNo, body);
      setName("");
      setExpires("");
      setPolicy("");
      onCreated(key);
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
      aria-label="Create a key"
    >
      <label htmlFor={`${id}-name`}>Key name</label>
      <input
        id={`${id}-name`}
        value={name}
        onChange={(event) => setName(event.target.value)}
        maxLength={255}
      />
      <label htmlFor={`${id}-type`}>Key type</label>
      <select
        id={`${id}-type`}
        value={type}
        onChange={(event) => setType(event.target.value === "public" ? "public" : "private")}
      >
        <option value="private">Private (server side)</option>
        <option value="public">Public (browsers, with an upload policy)</option>
      </select>
      <label htmlFor={`${id}-expires`}>Expires (optional)</label>
      <input
        id={`${id}-expires`}
        type="datetime-local"
        value={expires}
        onChange={(event) => setExpires(event.target.value)}
      />
      {type === "public" ? (
        <>
          <label htmlFor={`${id}-policy`}>Upload policy (JSON, optional)</label>
          <textarea
            id={`${id}-policy`}
            value={policy}
            onChange={(event) => setPolicy(event.target.value)}
            placeholder='{"allowed_types": ["image/*"], "max_file_size": 10485760}'
            rows={3}
          />
        </>
      ) : null}
      <button type="submit" disabled={busy}>
        {busy ? "Creating…" : "Create key"}
      </button>
      <ErrorLine error={error} />
    </form>
  );
}
