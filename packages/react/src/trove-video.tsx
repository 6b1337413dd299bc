import {
  type CSSProperties,
  forwardRef,
  useEffect,
  useImperativeHandle,
  useRef,
  type VideoHTMLAttributes,
} from "react";
import { attachHls } from "./attach-hls.js";
import { type FileRecordSize, recordOf, recordSize } from "./file-record.js";
import { useTroveContext } from "./trove-context.js";
import { type VideoSourceOptions, videoSources } from "./video-sources.js";

export interface TroveVideoProps
  extends Omit<VideoHTMLAttributes<HTMLVideoElement>, "src" | "poster" | "children">,
    Omit<VideoSourceOptions, "assetsUrl" | "workspaceNo"> {
  /** Overrides the provider's delivery host. */
  assetsUrl?: string;
  workspaceNo?: string;
  /**
   * The file's record (default: `src` when it is one): without `width` and `height`, its size is
   * written on the `<video>` (with `max-width: 100%; height: auto`) so the page does not shift.
   */
  file?: FileRecordSize | null;
}

/**
 * A `<video>` of a stored file: the MP4 delivery URL (optionally transformed), or with
 * `streaming` an HLS ladder played natively or by hls.js (loaded only where needed), the server's
 * `thumb_ar` still as poster. The element is forwarded to `ref`.
 */
export const TroveVideo = forwardRef<HTMLVideoElement, TroveVideoProps>(function TroveVideo(
  { src, streaming, transform, poster, assetsUrl, workspaceNo, file, width, height, style, ...video },
  ref,
) {
  const trove = useTroveContext();
  const sources = videoSources({
    src,
    streaming,
    transform,
    poster,
    assetsUrl: assetsUrl ?? trove?.assetsUrl,
    workspaceNo: workspaceNo ?? trove?.workspaceNo,
  });
  const element = useRef<HTMLVideoElement>(null);
  useImperativeHandle(ref, () => element.current as HTMLVideoElement, []);
  const hls = sources.primary.kind === "hls" ? sources.primary.url : undefined;
  // Keyed on the URLs, not the props: a new `streaming` array of the same heights keeps the player.
  useEffect(() => {
    const media = element.current;
    if (!media) return;
    if (hls !== undefined) return attachHls(media, { hls, mp4: sources.mp4 });
    // React wrote the MP4 before the stream's cleanup ran, which may have dropped the same URL
    // (the stream's fallback): put it back. Equal on first render, so the markup's load stands.
    if (media.getAttribute("src") !== sources.mp4) media.src = sources.mp4;
  }, [hls, sources.mp4]);

  const record = file === undefined ? recordOf<FileRecordSize>(src) : file;
  const intrinsic = width === undefined && height === undefined ? recordSize(record) : undefined;
  const sized: CSSProperties | undefined = intrinsic ? { maxWidth: "100%", height: "auto" } : undefined;
  return (
    <video
      {...video}
      ref={element}
      // An MP4 is in the markup (it plays before hydration and without script); a stream is
      // attached by the effect, since only the browser knows whether it plays HLS itself.
      src={hls === undefined ? sources.primary.url : undefined}
      poster={sources.poster}
      width={width ?? intrinsic?.width}
      height={height ?? intrinsic?.height}
      style={sized ? { ...sized, ...style } : style}
    />
  );
});
