/** What a bench hands back: table rows, and the notes that explain them in RESULTS.md. */

export type Verdict = "yes" | "no" | "n/a" | "error";

export interface Row {
  id: string;
  figure: string;
  trove: string;
  baseline: string;
  ratio: string;
  target: string;
  met: Verdict;
}

export interface BenchResult {
  rows: Row[];
  /** Markdown: per-run values, method, and for a missed target what limits it. */
  notes: string[];
}

export function fmt(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return "?";
  return value.toFixed(digits);
}

export function ratioText(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : "?";
}

export function verdict(ok: boolean): Verdict {
  return ok ? "yes" : "no";
}

export function errorRow(id: string, figure: string, target: string, error: unknown): Row {
  const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return {
    id,
    figure,
    trove: `**bench failed**: ${(message ?? "").slice(0, 160).replaceAll("|", "\\|")}`,
    baseline: "",
    ratio: "",
    target,
    met: "error",
  };
}
