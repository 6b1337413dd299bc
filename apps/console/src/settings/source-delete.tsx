import type { Source } from "@trove/schema";
import type { TroveClient } from "@trove/sdk";
import { useEffect, useRef, useState } from "react";

/** Deletes a source after a confirm step: its delivery URLs stop answering and its cached copies go. */
export function SourceDelete(props: { client: TroveClient; source: Source; onDeleted: () => void }) {
  const { client, source } = props;
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  // The user just asked to delete: focus moves to the question's safe answer.
  useEffect(() => {
    if (confirming) cancel.current?.focus();
  }, [confirming]);
  const questionId = `delete-question-${source.id}`;

  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await client.sources.delete(source.id);
      props.onDeleted();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <>
      {confirming ? (
        <div role="alertdialog" aria-labelledby={questionId} className="confirm">
          <span id={questionId}>Delete source {source.name}? Its delivery URLs stop working.</span>
          <button type="button" className="danger" disabled={busy} onClick={() => void run()}>
            {busy ? "Deleting…" : "Delete"}
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)} ref={cancel}>
            Cancel
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="danger"
          aria-label={`Delete ${source.name}`}
          onClick={() => setConfirming(true)}
        >
          Delete
        </button>
      )}
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </>
  );
}
