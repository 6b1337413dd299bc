import { useEffect, useRef, useState } from "react";

/**
 * A destructive button that asks first: `label` opens the question in place, "Confirm" runs
 * `onConfirm`, Cancel (or Escape) goes back. Focus moves to the confirm button, so keyboard users
 * land on the answer, and back to the first button when the question closes.
 */
export function InlineConfirm({
  label,
  accessibleName,
  question,
  confirmText,
  onConfirm,
}: {
  label: string;
  accessibleName: string;
  question: string;
  confirmText: string;
  onConfirm: () => Promise<unknown>;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (asking) asked.current = true;
    else if (asked.current) opener.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button
        type="button"
        className="danger"
        ref={opener}
        onClick={() => setAsking(true)}
        aria-label={accessibleName}
      >
        {label}
      </button>
    );
  }
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <span
      role="alertdialog"
      aria-label={question}
      className="admin__inline-confirm"
      onKeyDown={(event) => {
        if (event.key === "Escape") setAsking(false);
      }}
    >
      <span>{question} </span>
      {/* biome-ignore lint/a11y/noAutofocus: the question was just asked; its answer is the next step */}
      <button type="button" className="danger" disabled={busy} onClick={() => void confirm()} autoFocus>
        {confirmText}
      </button>
      <button type="button" disabled={busy} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
