/**
 * The pixel limits `<TroveUploader limits>` checks before sending an image, as the server's
 * upload policy does (`min_width`, `max_width`, `min_height`, `max_height`): a photo the policy
 * would refuse with IMAGE_DIMENSIONS_NOT_ALLOWED is refused on the page, without its bytes going.
 */
import type { UploaderStrings } from "./uploader-strings.js";

export interface ImageLimits {
  minWidth?: number;
  maxWidth?: number;
  minHeight?: number;
  maxHeight?: number;
}

export function hasImageLimits(limits: ImageLimits | undefined): limits is ImageLimits {
  return (
    !!limits &&
    [limits.minWidth, limits.maxWidth, limits.minHeight, limits.maxHeight].some(
      (value) => value !== undefined,
    )
  );
}

/** The first rule `size` breaks, in the strings' words, or undefined when it fits. */
export function brokenImageRule(
  size: { width: number; height: number },
  limits: ImageLimits,
  strings: Pick<UploaderStrings, "minWidth" | "maxWidth" | "minHeight" | "maxHeight">,
): string | undefined {
  if (limits.minWidth !== undefined && size.width < limits.minWidth) return strings.minWidth(limits.minWidth);
  if (limits.maxWidth !== undefined && size.width > limits.maxWidth) return strings.maxWidth(limits.maxWidth);
  if (limits.minHeight !== undefined && size.height < limits.minHeight)
    return strings.minHeight(limits.minHeight);
  if (limits.maxHeight !== undefined && size.height > limits.maxHeight)
    return strings.maxHeight(limits.maxHeight);
  return undefined;
}
