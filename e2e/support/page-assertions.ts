/** Assertions shared by the browser suites. */
import { createHash } from "node:crypto";
import { expect } from "vitest";

interface ProgressLike {
  loaded: number;
  confirmed: number;
  total: number;
  percent: number;
}

/** Reports end at 100% of `size` and no number ever moves backwards. */
export function expectProgressToComplete(progress: readonly ProgressLike[], size: number): void {
  expect(progress.length).toBeGreaterThan(0);
  expect(progress.at(-1)).toMatchObject({ loaded: size, confirmed: size, total: size, percent: 100 });
  for (const [index, report] of progress.entries()) {
    expect(report.total).toBe(size);
    expect(report.loaded).toBeLessThanOrEqual(size);
    const previous = progress[index - 1];
    if (!previous) continue;
    expect(report.loaded, `report ${index}: loaded went backwards`).toBeGreaterThanOrEqual(previous.loaded);
    expect(report.confirmed, `report ${index}: confirmed went backwards`).toBeGreaterThanOrEqual(
      previous.confirmed,
    );
    expect(report.percent, `report ${index}: percent went backwards`).toBeGreaterThanOrEqual(
      previous.percent,
    );
  }
}

export function digestOf(bytes: Uint8Array): { size: number; sha256: string } {
  return { size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** Downloads `url` (the delivery host) and returns its length and hex SHA-256. */
export async function downloadSha256(url: string): Promise<{ size: number; sha256: string }> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return digestOf(new Uint8Array(await response.arrayBuffer()));
}
