/**
 * Sizes, speeds and durations as the uploader prints them (`4.2 MB`, `1.1 MB/s`, `2 min 5 sec`),
 * through `Intl.NumberFormat` so that a `locale` gets its own digits, separators and unit names.
 *
 * One unit system everywhere, decided here: decimal (1 kB = 1,000 bytes), as macOS, iOS, Android
 * and the peers' widgets show file sizes, so the number a user reads in the uploader matches the
 * one their file manager showed. The starters print sizes with these functions too.
 */

const BYTE_UNITS = ["byte", "kilobyte", "megabyte", "gigabyte", "terabyte"] as const;
const STEP = 1000;

function unitFormat(locale: string | undefined, unit: string, digits: number): Intl.NumberFormat {
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit,
    unitDisplay: "short",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** The value scaled to its unit, and the number of decimals shown (none for bytes and from 100 up). */
function scaled(bytes: number): { value: number; unit: (typeof BYTE_UNITS)[number]; digits: number } {
  let value = Math.max(0, bytes);
  let index = 0;
  while (value >= STEP && index < BYTE_UNITS.length - 1) {
    value /= STEP;
    index++;
  }
  // What would round up to the next unit is shown in it: "1.0 MB", never "1000 kB".
  if (value >= STEP - 0.5 && index < BYTE_UNITS.length - 1) {
    value /= STEP;
    index++;
  }
  // 99.96 would print as "100.0": from 100 up no decimal is shown.
  if (index > 0 && value >= 99.95 && value < 100) value = 100;
  const unit = BYTE_UNITS[index] ?? "byte";
  return { value, unit, digits: index === 0 || value >= 100 ? 0 : 1 };
}

/**
 * Intl's short "byte" reads "12 byte" in English; file managers show "12 B". Below a kilobyte the
 * number is Intl's and the unit its narrow one ("B", French "o"), spaced like the larger units.
 */
function formatWithUnit(amount: number, unitSuffix: string, locale: string | undefined): string {
  const { value, unit, digits } = scaled(amount);
  if (unit !== "byte") return unitFormat(locale, `${unit}${unitSuffix}`, digits).format(value);
  const narrow = new Intl.NumberFormat(locale, {
    style: "unit",
    unit: `byte${unitSuffix}`,
    unitDisplay: "narrow",
  });
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
  const symbol = narrow
    .formatToParts(value)
    .filter((p) => p.type === "unit")
    .map((p) => p.value)
    .join("");
  return `${number} ${symbol}`;
}

/** `12.3 MB`, `999 B`; with `locale`, e.g. `12,3 Mo` in French. */
export function formatBytes(bytes: number, locale?: string): string {
  return formatWithUnit(bytes, "", locale);
}

/** `1.5 MB/s`. */
export function formatSpeed(bytesPerSecond: number, locale?: string): string {
  return formatWithUnit(bytesPerSecond, "-per-second", locale);
}

/** `5 sec`, `2 min 5 sec`, `2 hr 1 min`. */
export function formatDuration(seconds: number, locale?: string): string {
  const whole = Math.max(0, Math.round(seconds));
  const part = (value: number, unit: string) => unitFormat(locale, unit, 0).format(value);
  if (whole < 60) return part(whole, "second");
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${part(minutes, "minute")} ${part(whole % 60, "second")}`;
  return `${part(Math.floor(minutes / 60), "hour")} ${part(minutes % 60, "minute")}`;
}
