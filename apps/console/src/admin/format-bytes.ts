/** Byte units the quota fields offer, powers of 1024 as the usage figures are counted. */
export const BYTE_UNITS = [
  { unit: "B", factor: 1 },
  { unit: "KiB", factor: 1024 },
  { unit: "MiB", factor: 1024 ** 2 },
  { unit: "GiB", factor: 1024 ** 3 },
  { unit: "TiB", factor: 1024 ** 4 },
] as const;
export type ByteUnit = (typeof BYTE_UNITS)[number]["unit"];

/** `1536` → `1.5 KiB`. */
export function formatBytes(bytes: number): string {
  let chosen: (typeof BYTE_UNITS)[number] = BYTE_UNITS[0];
  for (const candidate of BYTE_UNITS) if (bytes >= candidate.factor) chosen = candidate;
  const value = bytes / chosen.factor;
  return `${chosen.unit === "B" ? value : Number(value.toFixed(value < 10 ? 2 : 1))} ${chosen.unit}`;
}

/** The largest unit that divides `bytes` exactly, so a saved quota reads back as it was typed. */
export function splitBytes(bytes: number): { amount: number; unit: ByteUnit } {
  let chosen: (typeof BYTE_UNITS)[number] = BYTE_UNITS[0];
  for (const candidate of BYTE_UNITS) if (bytes > 0 && bytes % candidate.factor === 0) chosen = candidate;
  return { amount: bytes / chosen.factor, unit: chosen.unit };
}

export function unitFactor(unit: ByteUnit): number {
  return BYTE_UNITS.find((candidate) => candidate.unit === unit)?.factor ?? 1;
}
