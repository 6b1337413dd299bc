/**
 * `w_auto` at delivery: the width a request asks for without naming it, from the request's
 * headers, rounded up to one of AUTO_WIDTH_STEPS.
 *
 * 1. A client hint for the image's own width (`Sec-CH-Width`, or the older `Width`): physical
 *    pixels, used as is.
 * 2. Else a viewport hint (`Sec-CH-Viewport-Width`, or `Viewport-Width`; CSS pixels) times the
 *    device pixel ratio (`Sec-CH-DPR`, or `DPR`; 1 when absent).
 * 3. Else the hosted service's documented default from `User-Agent` and `Save-Data`
 *    (TRANSFORMS-HOSTED.md §2.10): 1080 for iPhones, high-end Android phones, tablets and
 *    desktops; 720 for other Android browsers and anything unrecognised; 480 for Opera Mini,
 *    UC Browser and KaiOS, and for a phone that sends `Save-Data: on`.
 *
 * Every header is read under a bound (a 10 KB User-Agent is looked at through its first
 * UA_BYTES; a hint of more than HINT_CHARS characters, negative, zero or not a number is
 * ignored as if absent; a huge one just asks for the largest step), so nothing here can fail
 * or cost more than a few string searches.
 *
 * `vary` names the headers the choice read, in the order it read them: every earlier header of
 * the cascade counts too, because its absence is what let a later one decide. A shared cache
 * keyed on them then never hands one client's width to another.
 */
import type { IncomingHttpHeaders } from "node:http";
import { canonicalTransform, parseTransform } from "@trove/schema";

/** The widths `w_auto` resolves to (E/automatic.mdx): the smallest that is at least the ask. */
export const AUTO_WIDTH_STEPS = [320, 480, 720, 1080, 1440, 1920] as const;
export type AutoWidthStep = (typeof AUTO_WIDTH_STEPS)[number];

/** The client hints a page may delegate to the image host; sent as `Accept-CH`. */
export const AUTO_WIDTH_CLIENT_HINTS = ["Sec-CH-Width", "Sec-CH-Viewport-Width", "Sec-CH-DPR"] as const;

export interface AutoWidth {
  width: AutoWidthStep;
  /** Header names for `Vary`, as the choice read them. */
  vary: string[];
}

const WIDTH_HINTS = ["Sec-CH-Width", "Width"] as const;
const VIEWPORT_HINTS = ["Sec-CH-Viewport-Width", "Viewport-Width"] as const;
const DPR_HINTS = ["Sec-CH-DPR", "DPR"] as const;
const DEFAULT_HEADERS = ["User-Agent", "Save-Data"] as const;

/** A hint longer than this is not a number a browser sends ("1920", "2.625"). */
const HINT_CHARS = 16;
/** The part of a User-Agent the classification reads; the tokens it looks for come early. */
const UA_BYTES = 512;

export function autoWidth(headers: IncomingHttpHeaders): AutoWidth {
  const vary: string[] = [];
  const read = (names: readonly string[]): number | undefined => {
    for (const name of names) {
      vary.push(name);
      const value = positiveNumber(headerValue(headers, name));
      if (value !== undefined) return value;
    }
    return undefined;
  };

  const width = read(WIDTH_HINTS);
  if (width !== undefined) return { width: roundUpToStep(width), vary };
  const viewport = read(VIEWPORT_HINTS);
  if (viewport !== undefined) {
    const dpr = read(DPR_HINTS) ?? 1;
    return { width: roundUpToStep(viewport * dpr), vary };
  }
  vary.push(...DEFAULT_HEADERS);
  const saveData = headerValue(headers, "Save-Data")?.trim().toLowerCase() === "on";
  return { width: defaultWidth(headerValue(headers, "User-Agent") ?? "", saveData), vary };
}

/**
 * A canonical transform with its `w_auto` written out for this request (`w_auto,f_webp` →
 * `w_1080,f_webp`), still canonical, so it renders and caches as the explicit width would:
 * one variant per step, however many User-Agent strings ask. Undefined when the transform has
 * no `w_auto` (nothing to read, nothing to vary on).
 */
export function resolveAutoWidth(
  canonical: string,
  headers: IncomingHttpHeaders,
): { canonical: string; auto: AutoWidth } | undefined {
  // Most transforms have no w_auto: no parse for them on the delivery path.
  if (!canonical.includes("w_auto")) return undefined;
  const steps = parseTransform(canonical);
  if (!steps.some((step) => step.w === "auto")) return undefined;
  const auto = autoWidth(headers);
  const resolved = steps.map((step) => (step.w === "auto" ? { ...step, w: auto.width } : step));
  return { canonical: canonicalTransform(resolved), auto };
}

/** The smallest step at least `width`; the largest step for anything wider. */
export function roundUpToStep(width: number): AutoWidthStep {
  return AUTO_WIDTH_STEPS.find((step) => step >= width) ?? 1920;
}

type DeviceClass = "low-end" | "phone" | "high-end phone" | "tablet" | "desktop" | "unknown";

const DEVICE_WIDTH: Record<DeviceClass, AutoWidthStep> = {
  "low-end": 480,
  phone: 720,
  "high-end phone": 1080,
  tablet: 1080,
  desktop: 1080,
  unknown: 720,
};

/** The documented default width of a device class; `Save-Data` asks a phone for 480. */
export function defaultWidth(userAgent: string, saveData: boolean): AutoWidthStep {
  const device = classifyUserAgent(userAgent);
  if (saveData && (device === "phone" || device === "high-end phone")) return 480;
  return DEVICE_WIDTH[device];
}

export function classifyUserAgent(userAgent: string): DeviceClass {
  const ua = userAgent.slice(0, UA_BYTES);
  if (/Opera Mini|UCBrowser|UCWEB|KAIOS|KaiOS/.test(ua)) return "low-end";
  if (ua.includes("iPad")) return "tablet";
  if (ua.includes("iPhone")) return "high-end phone";
  if (ua.includes("Android")) {
    // Opera Mobile, Edge and Firefox on Android are listed at 720 whatever the phone.
    if (/OPR\/|Opera Mobi|EdgA\/|Firefox\//.test(ua)) return "phone";
    // Android tablets leave "Mobile" out of their User-Agent.
    if (!ua.includes("Mobile")) return "tablet";
    if (/SM-[A-Z0-9]|Samsung|SAMSUNG|Pixel|OnePlus|ONEPLUS/.test(ua)) return "high-end phone";
    return "phone";
  }
  if (/Macintosh|Windows NT|CrOS/.test(ua)) return "desktop";
  return "unknown";
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** A positive decimal ("800", "2.625"), or undefined for anything else. */
function positiveNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > HINT_CHARS || !/^\d+(?:\.\d+)?$/.test(trimmed))
    return undefined;
  const value = Number(trimmed);
  return value > 0 && Number.isFinite(value) ? value : undefined;
}
