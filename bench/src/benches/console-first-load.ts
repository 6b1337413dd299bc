/**
 * Bench 15: what the console's first page costs to load. The console (apps/console) is built by its
 * own Vite config into a temporary directory with a build manifest; the first load is the entry
 * chunk named by index.html and every chunk it imports statically (what the browser fetches before
 * the sign-in page can run), gzip level 9, against the 250 KiB budget of issue #36. The chunks it
 * imports dynamically (the library, after sign-in) are reported beside it.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { BenchContext } from "../support/context.js";
import { type BenchResult, fmt, ratioText, verdict } from "../support/report.js";

const CONSOLE_DIR = fileURLToPath(new URL("../../../apps/console", import.meta.url));
const VITE_BIN = join(CONSOLE_DIR, "node_modules", "vite", "bin", "vite.js");
const BUDGET_KIB = 250;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

/** The chunks reached from `keys` by static imports, each once. */
function staticClosure(manifest: Record<string, ManifestChunk>, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) visit(next);
  };
  for (const key of keys) visit(key);
  return seen;
}

export async function benchConsoleFirstLoad(_ctx: BenchContext): Promise<BenchResult> {
  const out = mkdtempSync(join(tmpdir(), "trove-console-bench-"));
  try {
    // Vite's own bin run by this Node: pnpm need not be on PATH (CI may reach it through npx).
    const vite = spawnSync(
      process.execPath,
      [VITE_BIN, "build", "--outDir", out, "--emptyOutDir", "--manifest", "--logLevel", "error"],
      { cwd: CONSOLE_DIR, encoding: "utf8" },
    );
    if (vite.status !== 0) throw new Error(`vite build failed: ${vite.stderr || vite.stdout}`);
    const manifest = JSON.parse(readFileSync(join(out, ".vite", "manifest.json"), "utf8")) as Record<
      string,
      ManifestChunk
    >;
    const gzipped = (key: string) => {
      const file = manifest[key]?.file ?? "";
      return file.endsWith(".js") ? gzipSync(readFileSync(join(out, file)), { level: 9 }).byteLength : 0;
    };
    const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
    const first = staticClosure(manifest, entries);
    const lazyKeys = [...first].flatMap((key) => manifest[key]?.dynamicImports ?? []);
    const later = [...staticClosure(manifest, lazyKeys)].filter((key) => !first.has(key));
    const sum = (keys: Iterable<string>) => [...keys].reduce((total, key) => total + gzipped(key), 0);
    const firstKiB = sum(first) / 1024;
    const laterKiB = sum(later) / 1024;
    return {
      rows: [
        {
          id: "15",
          figure: "first load of the console (sign-in page): JavaScript min+gzip, KiB",
          trove: fmt(firstKiB, 1),
          baseline: `${BUDGET_KIB} (the budget)`,
          ratio: ratioText(firstKiB / BUDGET_KIB),
          target: `≤ ${BUDGET_KIB} KiB`,
          met: verdict(firstKiB <= BUDGET_KIB),
        },
      ],
      notes: [
        `**15. Console first load.** \`vite build --manifest\` of apps/console (its own config: minified, ` +
          `React in production mode); the first load is the entry chunk and its static imports ` +
          `(${first.size} chunk${first.size === 1 ? "" : "s"}), gzip level 9: ${fmt(firstKiB, 1)} KiB. ` +
          `Loaded after sign-in (dynamic imports and theirs, ${later.length} chunk${later.length === 1 ? "" : "s"}): ` +
          `${fmt(laterKiB, 1)} KiB. Stylesheets are not counted.`,
      ],
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
