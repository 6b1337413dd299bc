import { checkDeliveryTransform, parseStreamingLadder, safeParseTransform } from "@trove/schema";
import { InvalidArgumentError } from "commander";

/** A commander parser for an integer in [min, max]. */
export function integerIn(min: number, max: number = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < min || number > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `expected an integer of at least ${min}.`
          : `expected an integer from ${min} to ${max}.`,
      );
    }
    return number;
  };
}

/** `a,b , c` → `["a", "b", "c"]`. */
export function commaList(value: string): string[] {
  return value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** Collects a repeatable option into an array. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** A transformation string, checked with the grammar the server uses before anything is sent. */
export function transformString(value: string): string {
  const parsed = safeParseTransform(value);
  if (!parsed.success) {
    throw new InvalidArgumentError(`${parsed.error.message} (expected e.g. w_800,h_600,c_fit,f_webp).`);
  }
  return value;
}

/** A delivery URL's transform: an image one, or a video one (`so_5,eo_15,w_400`, `thumb_ar`). */
export function deliveryTransformString(value: string): string {
  try {
    checkDeliveryTransform(value);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new InvalidArgumentError(
      `${message} (expected e.g. w_800,f_webp, or so_5,eo_15,w_400 for a video).`,
    );
  }
  return value;
}

/** `240,360,720` → [240, 360, 720]: an HLS ladder's rendition heights, checked by the grammar. */
export function streamingHeights(value: string): number[] {
  const items = commaList(value);
  try {
    if (!items.every((item) => /^\d{1,4}$/.test(item))) throw new Error("heights must be integers");
    return parseStreamingLadder(`st_${items.join("_")}`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new InvalidArgumentError(`${message} (expected ascending heights 144..2160, e.g. 240,360,720).`);
  }
}
