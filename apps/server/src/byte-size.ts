/**
 * `parseByteSize("20MB")` -> 20000000, `parseByteSize("1GiB")` -> 1073741824, `"512"` -> 512.
 * SI units (kB, MB, GB, TB: powers of 1000) and IEC units (KiB, MiB, GiB, TiB: powers of 1024),
 * case-insensitive, an optional space before the unit. Strict on purpose: the `bytes` package
 * reads "1GiB" as 1 byte, which would turn a limit into a refusal of everything.
 */
const UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

export class ByteSizeError extends Error {
  override name = "ByteSizeError";
}

export function parseByteSize(text: string): number {
  const match = /^(\d{1,15}(?:\.\d{1,6})?) ?([a-z]{1,3})?$/i.exec(text.trim());
  const unit = UNITS[(match?.[2] ?? "b").toLowerCase()];
  if (!match || unit === undefined) {
    throw new ByteSizeError(`"${text}" is not a size (e.g. 512, 20MB, 1GiB)`);
  }
  const bytes = Math.floor(Number(match[1]) * unit);
  if (bytes < 1 || !Number.isSafeInteger(bytes)) throw new ByteSizeError(`"${text}" is out of range`);
  return bytes;
}
