import { buildTransform, parseTransform, type TransformStep } from "@trove/schema";
import { TroveError } from "./errors.js";
import { invalidArgument } from "./invalid-argument.js";

export type DeliveryTransform = string | TransformStep | readonly TransformStep[];

/**
 * Anything that names a stored file: an upload result, a list row, file details, a rename
 * record, a delivery URL, or a `workspace_no/path` string.
 */
export type DeliveryTarget =
  | string
  | {
      url?: string | null;
      path?: string | null;
      name?: string;
      workspace_no?: string | null;
      workspace?: { workspace_no: string } | null;
    };

/**
 * `{assetsUrl}/{workspace_no}/{transform}/{path}`. Paths are raw (as the API returns them) and are
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
): string {
  const segment = transformSegment(transform);
  const { base, path } = locate(target, assetsUrl?.replace(/(?<!\/)\/+$/, ""));
  return segment ? `${base}/${segment}/${path}` : `${base}/${path}`;
}

function transformSegment(transform: DeliveryTransform | undefined): string {
  if (transform === undefined) return "";
  try {
    if (typeof transform !== "string") return buildTransform(transform);
    parseTransform(transform);
    return transform;
  } catch (error) {
    throw new TroveError(`Invalid transform: ${error instanceof Error ? error.message : String(error)}`, {
      code: "INVALID_ARGUMENT",
      cause: error,
    });
  }
}

function locate(target: DeliveryTarget, assetsUrl: string | undefined): { base: string; path: string } {
  if (typeof target === "string") {
    return isAbsolute(target) ? splitUrl(target, undefined, assetsUrl) : splitRelative(target, assetsUrl);
  }
  const workspaceNo = target.workspace_no ?? target.workspace?.workspace_no ?? undefined;
  const path = target.path ?? target.name ?? undefined;
  if (workspaceNo && path && assetsUrl) {
    return { base: `${assetsUrl}/${encodeURIComponent(workspaceNo)}`, path: encodePath(path) };
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
    const tail = `/${encodePath(knownPath.replace(/^\/+/, ""))}`;
    if (pathname.endsWith(tail) && pathname.length > tail.length) {
      return { base: `${origin}${pathname.slice(0, -tail.length)}`, path: tail.slice(1) };
    }
  }
  const prefix =
    assetsUrl && url.startsWith(`${assetsUrl}/`)
      ? new URL(assetsUrl).pathname.replace(/(?<!\/)\/+$/, "")
      : "";
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
  return { base: `${assetsUrl}/${encodeURIComponent(workspaceNo)}`, path: encodePath(rest.join("/")) };
}

function isAbsolute(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

/** Each segment of a raw path encoded (spaces, #, ?), the slashes between them kept. */
function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}
