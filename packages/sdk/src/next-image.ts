// `@trove/sdk/next-image`: a `next/image` custom loader that asks Trove's delivery host for each
// width Next wants, `{assets}/{workspace_no}/w_{width},f_auto,q_{quality}/{path}`, so Next's own
// image optimiser is not needed. next.config names a loader file (`images: { loader: "custom",
// loaderFile }`) that exports `createTroveLoader({ … })` (examples/next-app/trove-loader.ts), or
// this entry's default, configured by NEXT_PUBLIC_TROVE_ASSETS_URL and NEXT_PUBLIC_TROVE_WORKSPACE.
import { MAX_DIMENSION, type TransformStep } from "@trove/schema";
import { trimAssetsUrl } from "@trove/schema/zod-free";
import { type DeliveryTarget, deliveryUrl } from "./internal/delivery-url.js";
import { invalidArgument } from "./internal/invalid-argument.js";

/** What Next hands a loader (its `ImageLoaderProps`). */
export interface TroveLoaderProps {
  src: string;
  width: number;
  quality?: number | undefined;
}

export type TroveLoader = (props: TroveLoaderProps) => string;

export interface TroveLoaderOptions {
  /** The delivery host, e.g. `https://api.example.com/assets`. */
  assetsUrl: string;
  /** Your `workspace_no`: needed when `src` is a file's path rather than its URL. */
  workspace?: string | undefined;
  /**
   * `"auto"` (default): `f_auto`, the best format the browser accepts (AVIF, WebP) chosen per
   * request; `false`: keep the stored file's format.
   */
  format?: "auto" | false;
}

/**
 * A loader for `next/image`. `src` may be:
 * - a file's path in the workspace (`photos/cat one.jpg`, raw: it is percent-encoded here), with
 *   `workspace` set;
 * - a file's delivery URL (its `url` from the API) under `assetsUrl`;
 * - a path of the app's own (`/logo.png`, a static import's `/_next/static/…`): returned as it is,
 *   since Trove does not hold it.
 * Widths above Trove's largest (8192) ask for 8192; a width or quality Trove cannot read is a
 * TroveError (`INVALID_ARGUMENT`) naming it.
 */
export function createTroveLoader(options: TroveLoaderOptions): TroveLoader {
  if (!/^https?:\/\//i.test(options.assetsUrl)) {
    throw invalidArgument(
      `createTroveLoader needs assetsUrl as an http(s) URL, not ${JSON.stringify(options.assetsUrl)}`,
    );
  }
  const assetsUrl = trimAssetsUrl(options.assetsUrl);
  const format = options.format ?? "auto";
  return ({ src, width, quality }) => {
    if (src.startsWith("/")) return src;
    const step: TransformStep = { w: loaderWidth(width) };
    if (quality !== undefined) step.q = loaderQuality(quality);
    if (format === "auto") step.f = "auto";
    return deliveryUrl(target(src, assetsUrl, options.workspace), step, assetsUrl);
  };
}

function target(src: string, assetsUrl: string, workspace: string | undefined): DeliveryTarget {
  if (/^[a-z][a-z0-9+.-]*:/i.test(src)) {
    if (!src.startsWith(`${assetsUrl}/`))
      throw invalidArgument(`${src} is not a Trove delivery URL (it is not under ${assetsUrl})`);
    return src;
  }
  if (!workspace)
    throw invalidArgument(`The Trove loader needs a workspace for the file path ${JSON.stringify(src)}`);
  return { workspace_no: workspace, path: src };
}

/** Next asks for the widths of its sizes; Trove reads integers 1..8192. */
function loaderWidth(width: number): number {
  if (!Number.isFinite(width) || width <= 0)
    throw invalidArgument(`The Trove loader needs a positive width, not ${width}`);
  return Math.min(Math.ceil(width), MAX_DIMENSION);
}

function loaderQuality(quality: number): number {
  if (!Number.isInteger(quality) || quality < 1 || quality > 100)
    throw invalidArgument(`The Trove loader's quality is an integer 1..100, not ${quality}`);
  return quality;
}

/** The env of a Next app: the names are written out whole so that Next inlines them in pages. */
function envOptions(): TroveLoaderOptions {
  let assetsUrl: string | undefined;
  let workspace: string | undefined;
  try {
    assetsUrl = process.env.NEXT_PUBLIC_TROVE_ASSETS_URL;
    workspace = process.env.NEXT_PUBLIC_TROVE_WORKSPACE;
  } catch {
    // No `process` and nothing inlined: said below, by name.
  }
  if (!assetsUrl)
    throw invalidArgument("The Trove loader needs NEXT_PUBLIC_TROVE_ASSETS_URL (or use createTroveLoader)");
  return { assetsUrl, workspace };
}

let fromEnv: TroveLoader | undefined;

/** The loader configured by NEXT_PUBLIC_TROVE_ASSETS_URL and NEXT_PUBLIC_TROVE_WORKSPACE, read on first use. */
export default function troveLoader(props: TroveLoaderProps): string {
  fromEnv ??= createTroveLoader(envOptions());
  return fromEnv(props);
}
