/**
 * Adaptive streaming URLs (issue #33), after the workspace segment:
 *
 *   {ladder}/{path/to/video.mp4}/ar-master.m3u8        the HLS master playlist (the hosted form)
 *   {ladder}/{path/to/video.mp4}/dash/manifest.mpd     the DASH manifest over the same segments
 *   {ladder}/{path/to/video.mp4}/{file}                a media playlist or segment the master names
 *   {ladder}/{path/to/video.mp4}/dash/{file}           an init or media segment the manifest names
 *
 * `{ladder}` is `st_240_360_…` (rendition heights) or `processing` (the default ladder). `{file}`
 * is one of a package's own names (isStreamPackageFile), so nothing outside the package is named.
 * A stored file at the whole path is served first (src/delivery/variant-delivery.ts looks it up first).
 */
import { DEFAULT_STREAMING_STEP } from "@trove/schema";
import { DASH_MANIFEST_FILE, HLS_MASTER_FILE, isStreamPackageFile } from "../media/video/stream-package.js";

export const HLS_MASTER_URL_NAME = "ar-master.m3u8";
export const DASH_URL_FOLDER = "dash";

export interface StreamRequest {
  /** The ladder step as written (`st_240_360`, `processing`): what a signature covers. */
  step: string;
  /** The package file asked for (HLS_MASTER_FILE and DASH_MANIFEST_FILE go through the lifecycle). */
  file: string;
  /** The stored video's path. */
  filePath: string;
}

/** The stream a delivery path names, or null. */
export function parseStreamPath(path: string): StreamRequest | null {
  const segments = path.split("/");
  if (segments.length < 3) return null;
  const step = segments[0] as string;
  const last = segments.at(-1) as string;
  const inDash = segments.at(-2) === DASH_URL_FOLDER;
  let file: string;
  if (last === HLS_MASTER_URL_NAME) file = HLS_MASTER_FILE;
  else if (inDash && last === DASH_MANIFEST_FILE) file = DASH_MANIFEST_FILE;
  else if (isStreamPackageFile(last) && last !== HLS_MASTER_FILE && last !== DASH_MANIFEST_FILE) file = last;
  else return null;
  const fileSegments = segments.slice(1, inDash && file !== HLS_MASTER_FILE ? -2 : -1);
  if (fileSegments.length === 0) return null;
  // The ladder is read where it is served (an invalid `st_` one is a 400 naming it there).
  if (step !== DEFAULT_STREAMING_STEP && !step.startsWith("st_")) return null;
  return { step, file, filePath: fileSegments.join("/") };
}

/** Whether the file asked for is a manifest (the asynchronous lifecycle answers for it). */
export function isStreamEntry(request: StreamRequest): boolean {
  return request.file === HLS_MASTER_FILE || request.file === DASH_MANIFEST_FILE;
}
