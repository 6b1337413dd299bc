/**
 * The mask of `br` (rounded corners, or with `max` an ellipse touching all four sides): for each
 * pixel, the share of it inside the shape, as 0..255. The shape is symmetric about both middle
 * lines, and along a row of its left half the share only grows towards the middle, so a row is
 * three runs: outside (0), a few edge pixels, inside (255). Only the edge pixels are computed in
 * JavaScript, found by starting where the edge crosses the row and walking outwards; the runs
 * are Buffer.fill calls and the bottom half is a copy of the top. JavaScript work is therefore
 * O(width + height) whatever the image size; what remains on the event loop is writing one byte
 * per pixel natively (memset and memcpy), so building the mask never stalls it.
 */

/** Antialiasing: the share of a pixel inside an edge `distance` pixels away (positive outside). */
const coverage = (distance: number): number => Math.min(1, Math.max(0, 0.5 - distance));

/** One row of the left half: the share of column x inside the shape, never decreasing in x. */
interface RowShape {
  share(x: number): number;
  /** Where the edge crosses the row (share ½), in columns. */
  boundary: number;
}

/** A row's shape, or null when the whole row is inside. Rows are counted from the top. */
type Shape = (y: number) => RowShape | null;

/** Corners of `radius` pixels (at most half the shorter side). */
function cornersShape(height: number, radius: number): Shape {
  return (y) => {
    const py = y + 0.5;
    const dy = py < height / 2 ? radius - py : py - (height - radius);
    if (dy <= 0) return null;
    return {
      share: (x) => {
        const dx = radius - (x + 0.5);
        return dx <= 0 ? 1 : coverage(Math.hypot(dx, dy) - radius);
      },
      boundary: radius - Math.sqrt(Math.max(0, radius * radius - dy * dy)) - 0.5,
    };
  };
}

/** The ellipse inscribed in the image. */
function ellipseShape(width: number, height: number): Shape {
  const rx = width / 2;
  const ry = height / 2;
  return (y) => {
    const py = y + 0.5 - ry;
    return {
      share: (x) => {
        const px = x + 0.5 - rx;
        // Signed distance to the ellipse, to first order: (f - 1) / |grad f|.
        const f = (px / rx) ** 2 + (py / ry) ** 2;
        const gradient = Math.hypot((2 * px) / rx ** 2, (2 * py) / ry ** 2);
        return coverage(gradient > 0 ? (f - 1) / gradient : -Math.min(rx, ry));
      },
      boundary: rx - rx * Math.sqrt(Math.max(0, 1 - (py / ry) ** 2)) - 0.5,
    };
  };
}

/** A row of the mask's left half; the right half is its mirror image. */
export interface MaskRow {
  /** Columns before `from` are outside: 0. */
  from: number;
  /** Mask values of columns from, from + 1, ...; the columns after them, up to the middle, are 255. */
  edge: number[];
  /** How many pixels' shares were computed for this row. */
  evaluated: number;
}

const INSIDE: MaskRow = Object.freeze({ from: 0, edge: [], evaluated: 0 });

function maskRow(shape: RowShape | null, half: number): MaskRow {
  if (shape === null) return INSIDE;
  let evaluated = 0;
  const share = (x: number) => {
    evaluated += 1;
    return shape.share(x);
  };
  let from = Math.min(half - 1, Math.max(0, Math.floor(shape.boundary)));
  while (from > 0 && share(from - 1) > 0) from -= 1;
  while (from < half && share(from) <= 0) from += 1;
  const edge: number[] = [];
  for (let x = from; x < half; x++) {
    const value = share(x);
    if (value >= 1) break;
    edge.push(Math.round(value * 255));
  }
  return { from, edge, evaluated };
}

/** The rows of the mask's top half (the bottom half is its mirror image), from the top. */
export function* maskRows(width: number, height: number, radius: number | "max"): Generator<MaskRow> {
  const shape =
    radius === "max"
      ? ellipseShape(width, height)
      : cornersShape(height, Math.min(radius, width / 2, height / 2));
  const half = Math.ceil(width / 2);
  for (let y = 0; y < Math.ceil(height / 2); y++) yield maskRow(shape(y), half);
}

/** The whole mask: width × height bytes, top row first. */
export function roundCornersMask(width: number, height: number, radius: number | "max"): Buffer {
  const mask = Buffer.allocUnsafe(width * height);
  let y = 0;
  for (const row of maskRows(width, height, radius)) {
    const start = y * width;
    paintRow(mask.subarray(start, start + width), row);
    const mirror = height - 1 - y;
    if (mirror !== y) mask.copy(mask, mirror * width, start, start + width);
    y += 1;
  }
  return mask;
}

function paintRow(row: Buffer, { from, edge }: MaskRow): void {
  const width = row.length;
  const inside = from + edge.length;
  row.fill(0, 0, from);
  row.fill(0, width - from);
  if (inside < width - inside) row.fill(255, inside, width - inside);
  for (const [index, value] of edge.entries()) {
    row[from + index] = value;
    row[width - 1 - from - index] = value;
  }
}
