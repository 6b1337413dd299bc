import type { TroveClient } from "@trove/sdk";
import { useEffect, useRef, useState } from "react";

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
  const cancel = useRef<HTMLButtonElement>(null);
  // The user just asked to delete: focus moves to the question's safe answer.
  useEffect(() => {
    if (confirming) cancel.current?.focus();
  }, [confirming]);

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
        <div role="alertdialog" aria-labelledby="bulk-delete-question" className="bulk-delete__confirm">
          <span id="bulk-delete-question">
            Delete {count} {count === 1 ? "file" : "files"} permanently?
          </span>
          <button type="button" className="danger" disabled={busy} onClick={() => void run()}>
            {busy ? "Deleting…" : "Delete"}
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)} ref={cancel}>
            Cancel
          </button>
        </div>
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
