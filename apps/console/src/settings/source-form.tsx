import { SOURCE_TYPES, type Source, type SourceType } from "@trove/schema";
import type { TroveClient } from "@trove/sdk";
import { type FormEvent, useEffect, useRef, useState } from "react";
import {
  configurationOf,
  hasStoredSecret,
  SOURCE_FIELDS,
  SOURCE_TYPE_LABELS,
  storedValue,
} from "./source-fields.js";

/**
 * Creates a source, or edits one (`source` given). Secrets are password fields, always empty:
 * the API never returns a stored secret, and an edit that leaves one empty keeps it.
 */
export function SourceForm(props: {
  client: TroveClient;
  source?: Source;
  onSaved: (source: Source) => void;
  onCancel: () => void;
}) {
  const { client, source } = props;
  const [type, setType] = useState<SourceType>(source?.type ?? "image_source");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const title = source ? `Edit source ${source.name}` : "New source";
  const first = useRef<HTMLInputElement>(null);
  // The form just opened: the keyboard user starts in its first field.
  useEffect(() => first.current?.focus(), []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const configuration = configurationOf(type, form);
    setBusy(true);
    setError(null);
    try {
      props.onSaved(
        source
          ? await client.sources.update(source.id, {
              ...(name === source.name ? {} : { name }),
              configuration,
              is_active: form.get("is_active") === "on",
            })
          : await client.sources.create({ name, type, configuration }),
      );
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="form source-form"
      aria-label={title}
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key === "Escape") props.onCancel();
      }}
    >
      <h2>{title}</h2>
      <label className="field">
        <span>Name</span>
        <input
          ref={first}
          name="name"
          type="text"
          required
          maxLength={255}
          defaultValue={source?.name ?? ""}
          autoComplete="off"
        />
        <small className="muted">Letters, digits, _ and -: it is part of the delivery URL</small>
      </label>
      <label className="field">
        <span>Type</span>
        <select
          name="type"
          value={type}
          disabled={source !== undefined}
          onChange={(event) => setType(event.target.value as SourceType)}
        >
          {SOURCE_TYPES.map((option) => (
            <option key={option} value={option}>
              {SOURCE_TYPE_LABELS[option]}
            </option>
          ))}
        </select>
      </label>
      {/* Keyed by type: another type's fields start empty, not with the previous type's values. */}
      <fieldset key={type}>
        <legend>{SOURCE_TYPE_LABELS[type]} settings</legend>
        {SOURCE_FIELDS[type].map((field) =>
          field.kind === "checkbox" ? (
            <label key={field.key} className="check">
              <input name={field.key} type="checkbox" defaultChecked={storedValue(source, field) === true} />
              <span>{field.label}</span>
            </label>
          ) : (
            <label key={field.key} className="field">
              <span>
                {field.label}
                {field.required && !(field.secret && hasStoredSecret(source, field)) ? " (required)" : ""}
              </span>
              <input
                name={field.key}
                type={field.secret ? "password" : field.kind === "url" ? "url" : "text"}
                autoComplete={field.secret ? "new-password" : "off"}
                defaultValue={String(storedValue(source, field))}
                placeholder={
                  field.secret && hasStoredSecret(source, field)
                    ? "Stored; leave empty to keep it"
                    : undefined
                }
              />
              {field.hint ? <small className="muted">{field.hint}</small> : null}
            </label>
          ),
        )}
      </fieldset>
      {source ? (
        <label className="check">
          <input name="is_active" type="checkbox" defaultChecked={source.is_active} />
          <span>Active (its delivery URLs answer)</span>
        </label>
      ) : null}
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <div className="form__actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Saving…" : source ? "Save source" : "Create source"}
        </button>
        <button type="button" onClick={props.onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
