import { type AdminWorkspace, EMBEDDED_METADATA_MODES, type UpdateWorkspaceBody } from "@trove/schema";
import type { TroveAdminClient } from "@trove/sdk/admin";
import { type FormEvent, useId, useState } from "react";
import { ErrorLine } from "./error-line.js";
import { errorText } from "./error-text.js";
import { BYTE_UNITS, type ByteUnit, formatBytes, splitBytes, unitFactor } from "./format-bytes.js";

/** Name, quotas (empty: unlimited), strict transforms and the embedded metadata rule. */
export function SettingsView({
  api,
  workspace,
  onSaved,
}: {
  api: TroveAdminClient;
  workspace: AdminWorkspace;
  onSaved: (workspace: AdminWorkspace) => void;
}) {
  const id = useId();
  const storage = workspace.max_storage_bytes === null ? null : splitBytes(workspace.max_storage_bytes);
  const [name, setName] = useState(workspace.name);
  const [maxFiles, setMaxFiles] = useState(workspace.max_files === null ? "" : String(workspace.max_files));
  const [maxStorage, setMaxStorage] = useState(storage === null ? "" : String(storage.amount));
  const [unit, setUnit] = useState<ByteUnit>(storage?.unit ?? "GiB");
  const [strict, setStrict] = useState(workspace.strict_transforms);
  const [metadata, setMetadata] = useState<string>(workspace.embedded_metadata ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(false);
    const files = maxFiles.trim() === "" ? null : Number(maxFiles);
    if (files !== null && !(Number.isSafeInteger(files) && files >= 0)) {
      return setError("Max files must be a whole number of 0 or more, or empty for no limit");
    }
    const amount = maxStorage.trim() === "" ? null : Number(maxStorage);
    if (amount !== null && !(Number.isFinite(amount) && amount >= 0)) {
      return setError("Max storage must be a number of 0 or more, or empty for no limit");
    }
    const bytes = amount === null ? null : Math.round(amount * unitFactor(unit));
    if (bytes !== null && !Number.isSafeInteger(bytes)) return setError("Max storage is too large");
    const mode = EMBEDDED_METADATA_MODES.find((candidate) => candidate === metadata) ?? null;
    const changes: UpdateWorkspaceBody = {
      name: name.trim(),
      max_files: files,
      max_storage_bytes: bytes,
      strict_transforms: strict,
      embedded_metadata: mode,
    };
    setBusy(true);
    try {
      onSaved(await api.workspaces.update(workspace.workspace_no, changes));
      setSaved(true);
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="settings-title" className="admin__panel">
      <h2 id="settings-title">Settings</h2>
      <p className="muted">
        Usage: {workspace.file_count} {workspace.file_count === 1 ? "file" : "files"},{" "}
        {formatBytes(workspace.storage_bytes)}.
      </p>
      <form
        className="admin__form admin__form--grid"
        onSubmit={(event) => void submit(event)}
        aria-label="Settings"
      >
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          maxLength={255}
        />
        <label htmlFor={`${id}-files`}>Max files (empty: no limit)</label>
        <input
          id={`${id}-files`}
          type="number"
          min={0}
          step={1}
          value={maxFiles}
          onChange={(event) => setMaxFiles(event.target.value)}
        />
        <label htmlFor={`${id}-storage`}>Max storage (empty: no limit)</label>
        <span className="admin__inline">
          <input
            id={`${id}-storage`}
            type="number"
            min={0}
            step="any"
            value={maxStorage}
            onChange={(event) => setMaxStorage(event.target.value)}
          />
          <select
            aria-label="Storage unit"
            value={unit}
            onChange={(event) =>
              setUnit(BYTE_UNITS.find((u) => u.unit === event.target.value)?.unit ?? "GiB")
            }
          >
            {BYTE_UNITS.map((candidate) => (
              <option key={candidate.unit} value={candidate.unit}>
                {candidate.unit}
              </option>
            ))}
          </select>
        </span>
        <label htmlFor={`${id}-strict`}>Strict transforms (named transforms and signed URLs only)</label>
        <input
          id={`${id}-strict`}
          type="checkbox"
          checked={strict}
          onChange={(event) => setStrict(event.target.checked)}
        />
        <label htmlFor={`${id}-metadata`}>Embedded metadata of uploaded images</label>
        <select id={`${id}-metadata`} value={metadata} onChange={(event) => setMetadata(event.target.value)}>
          <option value="">Default (public keys and upload tokens strip, private keys keep)</option>
          <option value="strip">Strip all</option>
          <option value="strip-location">Strip location</option>
          <option value="keep">Keep</option>
        </select>
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save settings"}
        </button>
        <span aria-live="polite" className="muted">
          {saved ? "Saved" : ""}
        </span>
        <ErrorLine error={error} />
      </form>
    </section>
  );
}
