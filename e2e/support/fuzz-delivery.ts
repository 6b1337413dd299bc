/**
 * Property-based requests for the delivery host (`{assets}/{workspace_no}/{transform}/{path}`):
 * no key, public, and the place where untrusted input reaches the image renderer. Transforms are
 * built from the grammar's directives (@trove/schema) with values inside and
 * outside their ranges, then mutated (unknown keys, empty and doubled separators, huge and
 * encoded strings, traversal) or replaced by transformations that do nothing; paths name a real
 * image, a real non-image, an SVG holding a script, a missing file or nothing sensible; headers
 * vary Accept, Range and the validators.
 */
import {
  COLOUR_NAMES,
  CROP_MODES,
  errorEnvelopeSchema,
  FLIPS,
  GRAVITIES,
  IMAGE_FORMATS,
} from "@trove/schema";
import fc from "fast-check";
import { errorBodyProblems } from "./fuzz-requests";

export interface DeliveryContext {
  /** `http://127.0.0.1:<port>/assets` (no trailing slash). */
  assetsUrl: string;
  workspaceNo: string;
  /** Paths of stored files: a raster image, a non-image, and an SVG holding a script. */
  imagePath: string;
  textPath: string;
  svgPath: string;
}

export interface DeliveryRequest {
  method: "GET" | "HEAD";
  /** Everything after the assets URL. */
  path: string;
  headers: Record<string, string>;
}

const int = (min: number, max: number) => fc.integer({ min, max }).map(String);
/**
 * Mostly a valid value (nine in ten), so that most transforms reach the renderer; the rest are
 * at or past the edges of the grammar, for the parser to refuse.
 */
const valid = (ok: fc.Arbitrary<string>, bad: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 9, arbitrary: ok }, { weight: 1, arbitrary: bad });
const oneOf = (values: readonly string[]) => fc.constantFrom(...values);

const dimension = valid(
  int(1, 400),
  fc.constantFrom("0", "-1", "8192", "8193", "99999999999", "1.5", "0300", "+5"),
);
const quality = valid(fc.oneof(int(1, 100), fc.constant("auto")), fc.constantFrom("0", "101", "-5"));
const rotation = valid(int(-360, 360), fc.constantFrom("36001", "90.5", "-0"));
const ratio = valid(
  fc.tuple(int(1, 20), int(1, 20)).map(([a, b]) => `${a}:${b}`),
  fc.constantFrom("0:1", "1:0", "9999.99:0.01", "1.234:1", "16-9", ":"),
);
const colour = valid(
  fc.oneof(oneOf(COLOUR_NAMES), fc.constantFrom("ff8000", "FFFFFF")),
  fc.constantFrom("zzzzzz", "12345", "Red"),
);
// The documented ranges (issue #32); the renderers are in apps/server/src/media/effects/.
const effect = valid(
  fc.oneof(
    fc.constantFrom(
      "grayscale",
      "invert",
      "sharpen",
      "auto_enhance",
      "normalize",
      "improve",
      "improve:indoor",
    ),
    fc.tuple(fc.constantFrom("sharpen", "unsharp_mask"), int(1, 2000)).map(([name, n]) => `${name}:${n}`),
    fc
      .tuple(fc.constantFrom("structure", "blackwhite", "fade", "vignette"), int(0, 100))
      .map(([name, n]) => `${name}:${n}`),
    fc.constantFrom(
      "blur:0.3",
      "blur:2.5",
      "blur:40",
      "blur:1000",
      "gamma:-50",
      "gamma:150",
      "hue:-180",
      "hue:180",
    ),
    fc
      .tuple(
        fc.constantFrom(
          "contrast",
          "saturation",
          "exposure",
          "highlights",
          "shadows",
          "temperature",
          "warmth",
          "tint",
        ),
        int(-100, 100),
      )
      .map(([name, n]) => `${name}:${n}`),
    int(-99, 100).map((n) => `brightness:${n}`),
  ),
  fc.constantFrom(
    "blur:0.2",
    "blur:1001",
    "sharpen:2001",
    "brightness:-100",
    "hue:181",
    "improve:kitchen",
    "nope",
    "grayscale:5",
  ),
);

/** One directive of the transformation grammar, names from @trove/schema. */
const directive: fc.Arbitrary<string> = fc.oneof(
  dimension.map((v) => `w_${v}`),
  dimension.map((v) => `h_${v}`),
  ratio.map((v) => `ar_${v}`),
  valid(oneOf(CROP_MODES), fc.constantFrom("thumb", "zoom")).map((v) => `c_${v}`),
  valid(oneOf(GRAVITIES), fc.constantFrom("north", "face")).map((v) => `p_${v}`),
  valid(oneOf(IMAGE_FORMATS), fc.constantFrom("tiff", "bmp", "svg")).map((v) => `f_${v}`),
  quality.map((v) => `q_${v}`),
  rotation.map((v) => `r_${v}`),
  valid(oneOf(FLIPS), fc.constantFrom("x", "")).map((v) => `flip_${v}`),
  colour.map((v) => `bg_${v}`),
  valid(fc.oneof(int(0, 200), fc.constant("max")), fc.constantFrom("-1", "8193")).map((v) => `br_${v}`),
  effect.map((v) => `e_${v}`),
  // Not in the grammar at all.
  fc.constantFrom("x_1", "w", "_", "w__1", "W_100", "w_", "w_100_200", "l_text:hi"),
);

const step = fc.array(directive, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(","));
const validishTransform = fc.array(step, { minLength: 1, maxLength: 2 }).map((steps) => steps.join("/"));

/** Whole segments that are hostile on their own. */
const HOSTILE_SEGMENTS = [
  "",
  ".",
  "..",
  "%2e%2e",
  "%2F",
  "%00",
  "%zz",
  "%",
  "w_100%2Fh_100",
  "w_100,",
  ",w_100",
  "w_100,,h_100",
  "w_100;h_100",
  "w_1".repeat(1000),
  `w_${"9".repeat(400)}`,
  "😀_1",
  "w_١٠٠",
  "w_100\u202e",
];

/**
 * Transformations that canonicalise to nothing: once served active content (an SVG) as the stored
 * bytes without the sandboxing headers.
 */
const NO_OP_TRANSFORMS = [
  "r_0",
  "r_360",
  "r_-360",
  "br_0",
  "e_brightness:0",
  "e_contrast:0",
  "e_saturation:0",
  "r_0/br_0",
];

const transformSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: validishTransform.map((t) => encodeURI(t)) },
  { weight: 1, arbitrary: fc.constantFrom(...NO_OP_TRANSFORMS) },
  { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => encodeURIComponent(s)) },
);

const encodedPath = (path: string) =>
  path
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/");

function pathArb(ctx: DeliveryContext): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(encodedPath(ctx.imagePath)) },
    { weight: 2, arbitrary: fc.constant(encodedPath(ctx.textPath)) },
    { weight: 2, arbitrary: fc.constant(encodedPath(ctx.svgPath)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "missing.png",
        "../../etc/passwd",
        "%2e%2e/%2e%2e/etc/passwd",
        "a/../b.png",
        "%00.png",
      ),
    },
  );
}

const headersArb: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    accept: fc.constantFrom(
      "image/avif,image/webp,*/*",
      "image/webp",
      "*/*",
      "text/html",
      "image/*;q=0,*/*;q=0",
      "",
    ),
    range: fc.constantFrom(
      "bytes=0-10",
      "bytes=-5",
      "bytes=100-0",
      "bytes=0-0,5-9",
      "bytes=abc",
      "items=0-1",
      // Blanks between dashes: backtracked cubically in an earlier Range pattern (8 KB: a minute).
      `bytes=${" \t".repeat(2_000)}-${" \t".repeat(2_000)}-`,
    ),
    "if-none-match": fc.constantFrom('"abc"', "*", 'W/"x"', ""),
    "if-modified-since": fc.constantFrom("Tue, 24 Nov 2026 00:00:00 GMT", "not a date"),
  },
  { requiredKeys: [] },
);

export function deliveryRequestArb(ctx: DeliveryContext): fc.Arbitrary<DeliveryRequest> {
  const workspace = fc.oneof(
    { weight: 8, arbitrary: fc.constant(ctx.workspaceNo) },
    { weight: 1, arbitrary: fc.constantFrom("0000000000", "%zz", "..", "a".repeat(300)) },
  );
  return fc
    .record({
      method: fc.constantFrom<"GET" | "HEAD">("GET", "GET", "GET", "HEAD"),
      workspace,
      transform: fc.option(transformSegment, { nil: undefined, freq: 5 }),
      path: pathArb(ctx),
      headers: headersArb,
    })
    .map(({ method, workspace, transform, path, headers }) => ({
      method,
      path: `/${workspace}/${transform === undefined ? "" : `${transform}/`}${path}`,
      headers,
    }));
}

export interface DeliveryResponse {
  status: number;
  contentType: string;
  text: string;
  /**
   * Whether the request reached the delivery host: fetch resolves dot segments before sending,
   * so `{assets}/../x` is a request for `/x`, answered by the app's unknown-route handler.
   */
  reachedDelivery: boolean;
  /** The security headers every delivery response must carry. */
  nosniff: string | null;
  contentSecurityPolicy: string | null;
}

export async function sendDeliveryRequest(
  ctx: DeliveryContext,
  req: DeliveryRequest,
): Promise<DeliveryResponse> {
  const response = await fetch(`${ctx.assetsUrl}${req.path}`, {
    method: req.method,
    headers: req.headers,
    signal: AbortSignal.timeout(60_000),
  });
  const contentType = response.headers.get("content-type") ?? "";
  const security = {
    reachedDelivery: new URL(response.url).pathname.startsWith(`${new URL(ctx.assetsUrl).pathname}/`),
    nosniff: response.headers.get("x-content-type-options"),
    contentSecurityPolicy: response.headers.get("content-security-policy"),
  };
  // An error body is kept for the checks; a served file's bytes are read to finish the response.
  if (response.status >= 400) {
    return { status: response.status, contentType, text: await response.text(), ...security };
  }
  await response.arrayBuffer();
  return { status: response.status, contentType, text: "", ...security };
}

/**
 * Broken properties: no 5xx; every response, error or not, carries nosniff and a sandboxing CSP
 * (so no transform can serve an SVG's script on this origin); every error (but a HEAD's) is JSON
 * in the generic envelope.
 */
export function checkDeliveryResponse(req: DeliveryRequest, res: DeliveryResponse): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`status ${res.status}`);
  if (res.reachedDelivery && res.nosniff !== "nosniff") {
    problems.push(`X-Content-Type-Options ${JSON.stringify(res.nosniff)}`);
  }
  if (res.reachedDelivery && !/\bsandbox\b/.test(res.contentSecurityPolicy ?? "")) {
    problems.push(`Content-Security-Policy ${JSON.stringify(res.contentSecurityPolicy)}`);
  }
  if (res.status < 400 || req.method === "HEAD") return problems;
  if (!/^application\/json\b/i.test(res.contentType)) {
    problems.push(`error content type ${JSON.stringify(res.contentType)}`);
    return problems;
  }
  problems.push(...errorBodyProblems(res.text, errorEnvelopeSchema, "envelope"));
  return problems;
}

export function describeDeliveryRequest(req: DeliveryRequest): string {
  const path = req.path.length > 300 ? `${req.path.slice(0, 300)}…(${req.path.length} chars)` : req.path;
  return `${req.method} {assets}${path} ${JSON.stringify(req.headers)}`;
}
