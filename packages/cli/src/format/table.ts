import Table from "cli-table3";

// Borderless, two spaces between columns: reads like `ls -l`/`docker ps`, greps and cuts cleanly.
const PLAIN_CHARS = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  left: "",
  "left-mid": "",
  mid: "",
  "mid-mid": "",
  right: "",
  "right-mid": "",
  middle: "  ",
};

export type Cell = string | number | boolean | null | undefined;

function render(head: string[] | undefined, rows: Cell[][]): string {
  const table = new Table({
    ...(head ? { head } : {}),
    chars: PLAIN_CHARS,
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0 },
  });
  for (const row of rows)
    table.push(row.map((cell) => (cell === null || cell === undefined ? "" : String(cell))));
  return table
    .toString()
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n");
}

/** Columns with an upper-case header row. */
export function table(columns: string[], rows: Cell[][]): string {
  return render(
    columns.map((column) => column.toUpperCase()),
    rows,
  );
}

/** One record as `label:  value` lines (`trove info`, `trove sources get`). */
export function keyValues(pairs: [label: string, value: Cell][]): string {
  return render(
    undefined,
    pairs.map(([label, value]) => [`${label}:`, value]),
  );
}
