/** A rectangle in an image's pixels (fractional: detector output is scaled between sizes). */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The smallest box holding all of `boxes`; undefined for none. */
export function unionBox(boxes: readonly Box[]): Box | undefined {
  if (boxes.length === 0) return undefined;
  const left = Math.min(...boxes.map((box) => box.left));
  const top = Math.min(...boxes.map((box) => box.top));
  const right = Math.max(...boxes.map((box) => box.left + box.width));
  const bottom = Math.max(...boxes.map((box) => box.top + box.height));
  return { left, top, width: right - left, height: bottom - top };
}
