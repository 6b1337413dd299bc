/**
 * What a video transform produces: MP4 (H.264 + AAC), an animated GIF for `f_gif`, a WebP
 * still for `thumb_ar`. The delivery host serves the output with this type; the stored output's
 * key ends with the extension.
 */
import type { VideoTransform } from "@trove/schema";

export interface VideoOutput {
  format: "mp4" | "gif" | "webp";
  mimeType: string;
  extension: string;
}

const MP4: VideoOutput = { format: "mp4", mimeType: "video/mp4", extension: "mp4" };
const GIF: VideoOutput = { format: "gif", mimeType: "image/gif", extension: "gif" };
const WEBP: VideoOutput = { format: "webp", mimeType: "image/webp", extension: "webp" };

export function videoOutputOf(t: VideoTransform): VideoOutput {
  if (t.thumb) return WEBP;
  return t.f === "gif" ? GIF : MP4;
}
