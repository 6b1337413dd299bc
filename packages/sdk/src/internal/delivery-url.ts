import {
  buildTransform,
  checkDeliveryTransform,
  parseStreamingLadder,
  type TransformStep,
} from "@trove/schema";
import {
  deliveryBase,
  encodeDeliveryPath,
  HLS_MASTER_PLAYLIST,
  joinDeliveryUrl,
  SOURCE_NAME_PATTERN,
  trimAssetsUrl,
} from "@trove/schema/zod-free";
import { TroveError } from "./errors.js";
import { invalidArgument } from "./invalid-argument.js";

export type DeliveryTransform = string | TransformStep | readonly TransformStep[];

/**
 * An object in a source's origin (the customer's S3, Azure, GCS bucket or web server), served at
 * `{assetsUrl}/{workspace_no}-{source}/{transform}/{path}`. `workspace_no` defaults to the
 * client's `workspaceNo`.
 */
export interface SourceObjectTarget {
  /**
   * The source's name: the delivery URL's origin. (Not `source`: file records already carry a
   * `source` field of another meaning.)
   */
  origin: string;
  /** The object's path inside the origin, raw (`products/shoe one.jpg`). */
  path: string;
  workspace_no?: string;
}

/**
 * Anything that names a stored file: an upload result, a list row, file details, a rename
 * record, a delivery URL, or a `workspace_no/path` string; or an object of a source. A record of
 * a private file (`is_private`, or `isPrivate` as the upload option spells it) is refused: its
 * plain delivery URL answers 404, only a signed one serves it.
 */
export type DeliveryTarget =
  | string
  | SourceObjectTarget
  | {
      url?: string | null;
      path?: string | null;
      name?: string;
      workspace_no?: string | null;
      workspace?: { workspace_no: string } | null;
      file_no?: string;
      is_private?: boolean | null;
      isPrivate?: boolean | null;
    };

/**
 * `{assetsUrl}/{workspace_no}/{transform}/{path}` (the format is @trove/schema's
 * delivery-url-format.ts, which the server builds a file's `url` with). Paths are raw (as the API returns them) and are
 * encoded here; URLs are used as they are. Typed steps are written with buildTransform
 * (canonical); a transform string is checked with parseTransform and then used as written, so a
 * string that works on the hosted service keeps its exact spelling.
 *
 * With workspace_no and path known the URL is built on `assetsUrl`; otherwise the file's own
 * `url` is split where its path starts (or, failing that, after its workspace segment).
 */
export function deliveryUrl(
  target: DeliveryTarget,
  transform?: DeliveryTransform,
  assetsUrl?: string,
  workspaceNo?: string,
): string {
  return urlWithSegment(
    target,
    checked("transform", () => transformSegment(transform)),
    assetsUrl,
    workspaceNo,
  );
}

/**
 * `{assetsUrl}/{workspace_no}/st_{h}_{h}/{path}/ar-master.m3u8`: the HLS ladder of a stored video
 * with these rendition heights (144..2160, ascending; @trove/schema's parseStreamingLadder). The
 * server packages the renditions on the first request (202 with Retry-After until they are ready).
 */
export function streamingUrl(
  target: DeliveryTarget,
  heights: readonly number[],
  assetsUrl?: string,
  workspaceNo?: string,
): string {
  const ladder = checked("streaming heights", () => {
    const step = `st_${heights.join("_")}`;
    parseStreamingLadder(step);
    return step;
  });
  return `${urlWithSegment(target, ladder, assetsUrl, workspaceNo)}/${HLS_MASTER_PLAYLIST}`;
}

function urlWithSegment(
  target: DeliveryTarget,
  segment: string,
  assetsUrl: string | undefined,
  workspaceNo: string | undefined,
): string {
  const assets = assetsUrl === undefined ? undefined : trimAssetsUrl(assetsUrl);
  const { base, path } =
    typeof target === "object" && "origin" in target
      ? locateSourceObject(target, assets, workspaceNo)
      : locate(target, assets);
  return joinDeliveryUrl(base, path, segment);
}

/** The grammar's TransformParseError as the SDK's INVALID_ARGUMENT, naming what was invalid. */
function checked(what: string, write: () => string): string {
  try {
    return write();
  } catch (error) {
    throw new TroveError(`Invalid ${what}: ${error instanceof Error ? error.message : String(error)}`, {
      code: "INVALID_ARGUMENT",
      cause: error,
    });
  }
}

/**
 * A typed transform written canonically; a string checked (by the image grammar, or the video one:
 * `so_5,eo_15,w_400`, `thumb_ar`, see buildVideoTransform) and kept as written.
 */
function transformSegment(transform: DeliveryTransform | undefined): string {
  if (transform === undefined) return "";
  if (typeof transform !== "string") return buildTransform(transform);
  checkDeliveryTransform(transform);
  return transform;
}

function locateSourceObject(
  target: SourceObjectTarget,
  assetsUrl: string | undefined,
  clientWorkspaceNo: string | undefined,
): { base: string; path: string } {
  const workspaceNo = target.workspace_no ?? clientWorkspaceNo;
  if (!assetsUrl || !workspaceNo)
    throw invalidArgument(
      "client.url() needs assetsUrl and workspaceNo (client options) for a source object",
    );
  if (!SOURCE_NAME_PATTERN.test(target.origin))
    throw invalidArgument(`${JSON.stringify(target.origin)} is not a source name (letters, digits, _ and -)`);
  const path = target.path.replace(/^\/+/, "");
  if (path === "") throw invalidArgument("client.url() needs the object's path inside the source");
  return { base: deliveryBase(assetsUrl, workspaceNo, target.origin), path: encodeDeliveryPath(path) };
}

function locate(
  target: Exclude<DeliveryTarget, SourceObjectTarget>,
  assetsUrl: string | undefined,
): { base: string; path: string } {
  if (typeof target === "string") {
    return isAbsolute(target) ? splitUrl(target, undefined, assetsUrl) : splitRelative(target, assetsUrl);
  }
  if (target.is_private === true || target.isPrivate === true) {
    // Only the server can sign (the key never leaves it): say where the URL comes from instead.
    const which = target.file_no === undefined ? "a private file" : `private file ${target.file_no}`;
    throw invalidArgument(
      `client.url() cannot give a URL of ${which}: an unsigned URL of it answers 404. Call client.signedUrl(file) instead, which asks the server for a signed URL.`,
    );
  }
  const workspaceNo = target.workspace_no ?? target.workspace?.workspace_no ?? undefined;
  const path = target.path ?? target.name ?? undefined;
  if (workspaceNo && path && assetsUrl) {
    return { base: deliveryBase(assetsUrl, workspaceNo), path: encodeDeliveryPath(path) };
  }
  if (target.url) {
    return isAbsolute(target.url)
      ? splitUrl(target.url, target.path ?? undefined, assetsUrl)
      : splitRelative(target.url, assetsUrl);
  }
  throw invalidArgument(
    "client.url() needs a url, or workspace_no and path together with the client's assetsUrl",
  );
}

/** `https://assets/ws1/photos/cat.jpg` with path `photos/cat.jpg` → base `https://assets/ws1`. */
function splitUrl(url: string, knownPath: string | undefined, assetsUrl: string | undefined) {
  const parsed = new URL(url);
  const pathname = parsed.pathname;
  const origin = parsed.origin;
  if (knownPath) {
    const tail = `/${encodeDeliveryPath(knownPath.replace(/^\/+/, ""))}`;
    if (pathname.endsWith(tail) && pathname.length > tail.length) {
      return { base: `${origin}${pathname.slice(0, -tail.length)}`, path: tail.slice(1) };
    }
  }
  const prefix =
    assetsUrl && url.startsWith(`${assetsUrl}/`) ? trimAssetsUrl(new URL(assetsUrl).pathname) : "";
  const [workspaceNo, ...rest] = pathname.slice(prefix.length + 1).split("/");
  if (!workspaceNo || rest.length === 0)
    throw invalidArgument(`${url} is not a delivery URL ({assets}/{workspace}/{path})`);
  return { base: `${origin}${prefix}/${workspaceNo}`, path: rest.join("/") };
}

/** `ws1/photos/cat.jpg` → on assetsUrl. */
function splitRelative(value: string, assetsUrl: string | undefined) {
  if (!assetsUrl)
    throw invalidArgument("client.url() needs the client's assetsUrl for a path without a host");
  const [workspaceNo, ...rest] = value.replace(/^\/+/, "").split("/");
  if (!workspaceNo || rest.length === 0)
    throw invalidArgument(`${value} is not a {workspace_no}/{path} path`);
  return { base: deliveryBase(assetsUrl, workspaceNo), path: encodeDeliveryPath(rest.join("/")) };
}

function isAbsolute(value: string): boolean {
  return /^https?:\/\//i.test(value);
}
