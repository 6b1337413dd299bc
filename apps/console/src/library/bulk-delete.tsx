import type { TroveClient } from "@trove/sdk";
import { useState } from "react";
import { ConfirmStep } from "./confirm-step.js";

/**
 * Deletes the selected files after a confirm step (deleting is permanent, in storage and
 * database). Files are deleted one request at a time, so a failure names what is left.
 */
export function BulkDelete(props: {
  client: TroveClient;
  selected: ReadonlySet<string>;
  onDeleted: (deleted: readonly string[]) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const count = props.selected.size;

  const run = async () => {
    setBusy(true);
    setError(null);
    const deleted: string[] = [];
    try {
      for (const fileNo of props.selected) {
        await props.client.files.delete(fileNo);
        deleted.push(fileNo);
      }
    } catch (caught) {
      setError(
        `${caught instanceof Error ? caught.message : String(caught)} (${count - deleted.length} not deleted)`,
      );
    } finally {
      setBusy(false);
      setConfirming(false);
      props.onDeleted(deleted);
    }
  };

  if (count === 0 && !error) return null;
  return (
    <div className="bulk-delete">
      {confirming ? (
        <ConfirmStep
          id="bulk-delete-question"
          question={`Delete ${count} ${count === 1 ? "file" : "files"} permanently?`}
          action="Delete"
          busyAction="Deleting…"
          busy={busy}
          onConfirm={() => void run()}
          onCancel={() => setConfirming(false)}
        />
      ) : count > 0 ? (
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          Delete selected ({count})
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
