import type { Source } from "@trove/schema";
import type { TroveClient } from "@trove/sdk";
import { useState } from "react";
import { ConfirmStep } from "../library/confirm-step.js";

/** Deletes a source after a confirm step: its delivery URLs stop answering and its cached copies go. */
export function SourceDelete(props: { client: TroveClient; source: Source; onDeleted: () => void }) {
  const { client, source } = props;
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
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
        <ConfirmStep
          id={questionId}
          question={`Delete source ${source.name}? Its delivery URLs stop working.`}
          action="Delete"
          busyAction="Deleting…"
          busy={busy}
          onConfirm={() => void run()}
          onCancel={() => setConfirming(false)}
        />
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
