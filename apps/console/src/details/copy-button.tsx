import { useState } from "react";

/** Copies `text` to the clipboard and says so (politely, for screen readers). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <>
      <button type="button" onClick={() => void copy()} aria-label={label}>
        Copy
      </button>
      <span className="muted" aria-live="polite">
        {state === "copied" ? "Copied" : state === "failed" ? "Copy failed: select the URL and copy it" : ""}
      </span>
    </>
  );
}
