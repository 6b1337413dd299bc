/**
 * The URLs a <TroveVideo> plays: an HLS master playlist when `streaming` heights are given, the
 * MP4 delivery URL (the fallback where HLS cannot play, and the source without `streaming`), and
 * the poster. Pure (no React, no browser), so a server component can call it too.
 */
import { type DeliveryTarget, deliveryUrl, streamingUrl } from "@trove/sdk";

/** `thumb_ar`: the server's WebP still of the video's first frame, at the video's aspect ratio. */
const POSTER_TRANSFORM = "thumb_ar";

export interface VideoSourceOptions {
  src: DeliveryTarget;
  /**
   * Rendition heights of an HLS ladder (144..2160, ascending): `[240, 360, 720]` plays
   * `{assets}/{ws}/st_240_360_720/{path}/ar-master.m3u8`. Default: the MP4.
   */
  streaming?: readonly number[] | undefined;
  /**
   * A video transform string (`"so_2,eo_8,w_640"`, or `buildVideoTransform()` of
   * `@trove/sdk/transform`) for the MP4. The HLS URL form has no transform slot, so with
   * `streaming` it shapes only the MP4 fallback.
   */
  transform?: string | undefined;
  /** `true` (default): the server's `thumb_ar` still; `false`: none; a string: that URL. */
  poster?: boolean | string | undefined;
  assetsUrl?: string | undefined;
  workspaceNo?: string | undefined;
}

export interface VideoSources {
  /** What to play: `kind: "hls"` needs native HLS or hls.js; `"mp4"` plays anywhere. */
  primary: { kind: "hls" | "mp4"; url: string };
  /** The MP4 delivery URL, played where HLS cannot be (no native HLS and no MediaSource). */
  mp4: string;
  poster: string | undefined;
}

export function videoSources(options: VideoSourceOptions): VideoSources {
  const { src, streaming, assetsUrl, workspaceNo } = options;
  const transform = options.transform === "" ? undefined : options.transform;
  const mp4 = deliveryUrl(src, transform, assetsUrl, workspaceNo);
  const primary =
    streaming === undefined
      ? { kind: "mp4" as const, url: mp4 }
      : { kind: "hls" as const, url: streamingUrl(src, streaming, assetsUrl, workspaceNo) };
  const poster =
    options.poster === false
      ? undefined
      : typeof options.poster === "string"
        ? options.poster
        : deliveryUrl(src, POSTER_TRANSFORM, assetsUrl, workspaceNo);
  return { primary, mp4, poster };
}
