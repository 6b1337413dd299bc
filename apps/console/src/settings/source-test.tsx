import type { Source, SourceTestResult } from "@trove/schema";
import { useState } from "react";

/**
 * "Test connection": the server tries the origin with the stored credentials through the same
 * guarded path deliveries use, and the outcome is shown as text (the origin's message is the
 * origin's, so it is never markup).
 */
export function SourceTest(props: { source: Source; test: (sourceId: string) => Promise<SourceTestResult> }) {
  const { source } = props;
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  const run = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const result = await props.test(source.id);
      setOutcome({ ok: result.ok, text: describe(result) });
    } catch (caught) {
      setOutcome({
        ok: false,
        text: `Not tested: ${caught instanceof Error ? caught.message : String(caught)}`,
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        disabled={busy}
        aria-label={`Test connection of ${source.name}`}
        onClick={() => void run()}
      >
        {busy ? "Testing…" : "Test connection"}
      </button>
      <output className={`source-test ${outcome?.ok === false ? "error" : ""}`} aria-live="polite">
        {outcome?.text ?? ""}
      </output>
    </>
  );
}

function describe(result: SourceTestResult): string {
  const status = result.status === null ? "no answer" : `status ${result.status}`;
  const message = result.message ? `: ${result.message}` : "";
  return `${result.ok ? "Connection OK" : "Connection failed"} (${status}, ${result.elapsed_ms} ms)${message}`;
}
