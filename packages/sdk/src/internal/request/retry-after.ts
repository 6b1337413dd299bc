/**
 * Seconds to wait from a `Retry-After` header: either delay-seconds or an HTTP date
 * (RFC 9110 §10.2.3). A date in the past means "now" (0). Anything else is ignored.
 */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  // An HTTP date always names its day and month; without letters Date.parse would read "-3" as a year.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
