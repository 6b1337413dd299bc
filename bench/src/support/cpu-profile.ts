/**
 * Summarises a V8 CPU profile (`node --cpu-prof`) for RESULTS.md: where the busy time went,
 * by package or area and by function (self time), idle excluded.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Only samples between `fromEndMs` and `toEndMs` before the profile's end (process exit). */
export interface ProfileWindow {
  fromEndMs: number;
  toEndMs: number;
}

function shortUrl(url: string): string {
  if (!url) return "";
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (pkg) return `${pkg[1]}/${pkg[2]}`;
  const ours =
    /\/work\/[^/]+\/(?:main\/)?((?:apps|packages)\/.*)$/.exec(url) ??
    /((?:apps|packages)\/[^/]+\/src\/.*)$/.exec(url);
  if (ours) return ours[1] as string;
  return url.replace(/^file:\/\//, "");
}

function area(url: string, functionName: string): string {
  if (!url) {
    if (functionName.startsWith("(")) return functionName;
    return "native / V8 builtins";
  }
  if (url.startsWith("node:")) return "Node internals (streams, http, fs, crypto bindings)";
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return `npm: ${pkg[1]}`;
  const ours = /((?:apps|packages)\/[^/]+)\/src\/([^/]+)/.exec(url);
  if (ours) return `${ours[1]}/src/${ours[2]?.endsWith(".ts") ? "" : `${ours[2]}/`}`;
  return shortUrl(url);
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  areas: Array<{ name: string; ms: number }>;
  functions: Array<{ name: string; ms: number }>;
  /** Trove's own functions (apps/*, packages/*) by inclusive time: themselves and all they call. */
  troveInclusive: Array<{ name: string; ms: number }>;
}

function isTroveSource(url: string): boolean {
  return /\/(apps|packages)\/[^/]+\/src\//.test(url) && !url.includes("/generated/");
}

export function summariseProfile(file: string, window?: ProfileWindow): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  const from = window ? profile.endTime - window.fromEndMs * 1000 : Number.NEGATIVE_INFINITY;
  const to = window ? profile.endTime - window.toEndMs * 1000 : Number.POSITIVE_INFINITY;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    if (at < from || at > to) return;
    const delta = (profile.timeDeltas[index + 1] ?? profile.timeDeltas[index] ?? 0) / 1000;
    selfMs.set(id, (selfMs.get(id) ?? 0) + delta);
  });
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let idleMs = 0;
  let busyMs = 0;
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    if (frame.functionName === "(idle)") {
      idleMs += ms;
      continue;
    }
    busyMs += ms;
    const areaName = area(frame.url, frame.functionName);
    areas.set(areaName, (areas.get(areaName) ?? 0) + ms);
    const where = frame.url
      ? ` ${shortUrl(frame.url)}${isTroveSource(frame.url) ? "" : `:${frame.lineNumber + 1}`}`
      : "";
    const key = `${frame.functionName || "(anonymous)"}${where}`;
    functions.set(key, (functions.get(key) ?? 0) + ms);
    // Each Trove function on this stack gets the time once, however deep the recursion.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const up = byId.get(at)?.callFrame;
      if (!up || !isTroveSource(up.url)) continue;
      // No line: tsx's transpiled output does not keep the source's lines.
      const name = `${up.functionName || "(anonymous)"} ${shortUrl(up.url)}`;
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
    }
  }
  const sorted = (map: Map<string, number>) =>
    [...map].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
  return {
    busyMs,
    idleMs,
    areas: sorted(areas),
    functions: sorted(functions),
    troveInclusive: sorted(inclusive),
  };
}

/**
 * The main thread's profile in a directory. Node names them CPU.<date>.<time>.<pid>.<thread>.<seq>;
 * loader-hook workers (tsx) write their own, with a thread id other than 0.
 */
export function newestProfile(dir: string): string | undefined {
  const files = readdirSync(dir)
    .filter((name) => /\.\d+\.0\.\d+\.cpuprofile$/.test(name))
    .sort();
  const last = files.at(-1);
  return last ? join(dir, last) : undefined;
}

export function profileMarkdown(title: string, summary: ProfileSummary, top = 10): string {
  const pct = (ms: number) => `${((ms / summary.busyMs) * 100).toFixed(0)}%`;
  return [
    `${title}: ${(summary.busyMs / 1000).toFixed(2)} s on the CPU, ${(summary.idleMs / 1000).toFixed(2)} s idle.`,
    `  - by area: ${summary.areas
      .slice(0, 8)
      .map((a) => `${a.name} ${pct(a.ms)}`)
      .join(", ")}`,
    `  - hottest functions (self time): ${summary.functions
      .slice(0, top)
      .map((f) => `\`${f.name}\` ${pct(f.ms)}`)
      .join(", ")}`,
    ...(summary.troveInclusive.length > 0
      ? [
          `  - Trove's own functions, inclusive (with what they call): ${summary.troveInclusive
            .slice(0, top)
            .map((f) => `\`${f.name}\` ${pct(f.ms)}`)
            .join(", ")}`,
        ]
      : []),
  ].join("\n");
}
