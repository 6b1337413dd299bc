/**
 * The ffmpeg filter graph of a video transform, from `[0:v]` to `[v]`: size (scale, pad or crop,
 * or a blurred copy behind the fitted frame), flips, rotation, then for a GIF the frame rate and
 * a palette made from the clip itself. Only filters ffmpeg 4.1 has (the npm build) are used.
 * ffmpeg has already turned the input upright (autorotate), so sizes are of the displayed frame.
 */
import type { VideoBackground, VideoTransform } from "@trove/schema";
import type { VideoFrameSize } from "./video-frame-size.js";

/** GIF frame rate: smooth enough for a preview, a third of a 30 fps clip's bytes. */
export const GIF_FPS = 12;
const DEFAULT_BACKGROUND: VideoBackground = { kind: "colour", hex: "000000" };

export function videoFilterGraph(t: VideoTransform, size: VideoFrameSize): string {
  const { width: W, height: H } = size;
  const sized = sizeChains(size, t.bg ?? DEFAULT_BACKGROUND);
  const turns = [...flips(t.flip), ...rotation(t.r)];
  const after = ["setsar=1", ...turns];
  if (t.f === "gif" && !t.thumb) {
    return `${sized}[sized];[sized]${after.join(",")},fps=${GIF_FPS},split[g1][g2];[g1]palettegen=stats_mode=diff[pal];[g2][pal]paletteuse=dither=bayer[v]`;
  }
  // yuv420p: what H.264 players decode everywhere (and what libwebp takes as is).
  return `${sized}[sized];[sized]${[...after, "format=yuv420p"].join(",")}[v]`;

  function sizeChains(frame: VideoFrameSize, bg: VideoBackground): string {
    const fit = `scale=${W}:${H}:force_original_aspect_ratio=decrease`;
    if (frame.fit === "scale") return `[0:v]scale=${W}:${H}`;
    if (frame.fit === "crop")
      return `[0:v]scale=${W}:${H}:force_original_aspect_ratio=increase,crop=${W}:${H}`;
    if (bg.kind === "colour") return `[0:v]${fit},pad=${W}:${H}:(ow-iw)/2:(oh-ih)/2:color=0x${bg.hex}`;
    // A blurred copy filling the frame behind the fitted one. Box blur radius: `strength`% of
    // half the short side (the most boxblur takes), the chroma planes' half of that.
    const luma = Math.max(1, Math.floor(((Math.min(W, H) / 2) * bg.strength) / 100));
    const chroma = Math.floor(((Math.min(W, H) / 4) * bg.strength) / 100);
    return (
      `[0:v]split[fg][bg];` +
      `[bg]scale=${W}:${H}:force_original_aspect_ratio=increase,crop=${W}:${H},format=yuv420p,` +
      `boxblur=luma_radius=${luma}:luma_power=2:chroma_radius=${chroma}:chroma_power=2[blur];` +
      `[fg]${fit}[fit];[blur][fit]overlay=(W-w)/2:(H-h)/2`
    );
  }
}

function flips(flip: VideoTransform["flip"]): string[] {
  if (flip === "h") return ["hflip"];
  if (flip === "v") return ["vflip"];
  return flip === "hv" ? ["hflip", "vflip"] : [];
}

/** Clockwise quarter turns: transpose=clock (1) is 90°, a half turn is both flips. */
function rotation(r: VideoTransform["r"]): string[] {
  if (r === 90) return ["transpose=clock"];
  if (r === 180) return ["hflip", "vflip"];
  return r === 270 ? ["transpose=cclock"] : [];
}
