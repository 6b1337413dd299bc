const UNITS = ["B", "kB", "MB", "GB", "TB"];

/** Decimal units (1 MB = 1,000,000 bytes), as file managers and the other Trove starters show sizes. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
}
