/** `formatStorageBytes(9_900_000)` -> "9.9 MB": SI units, as quotas are set and shown in bytes. */
const UNITS = ["bytes", "kB", "MB", "GB", "TB", "PB"];

export function formatStorageBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const shown = unit === 0 ? String(value) : String(Math.floor(value * 10) / 10);
  return `${shown} ${UNITS[unit]}`;
}
