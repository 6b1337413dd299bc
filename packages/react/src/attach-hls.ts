/// <reference path="./hls-light.d.ts" />
/**
 * Puts an HLS playlist on a <video>: natively where the browser plays HLS itself (Safari, iOS,
 * some Android and Chromium builds), else with hls.js over Media Source Extensions, loaded by
 * dynamic import only then, so pages that never stream (and Safari) never download it. Where
 * neither works, or the stream fails for good (a server that does not render streams yet
 * answers 404), the MP4 plays instead. Nothing here runs at import: SSR-safe.
 */

export const HLS_MIME_TYPE = "application/vnd.apple.mpegurl";

/** The part of an hls.js instance the player drives (tests pass a fake). */
export interface HlsInstance {
  loadSource(url: string): void;
  attachMedia(media: HTMLMediaElement): void;
  on(event: string, listener: (event: string, data: { fatal: boolean }) => void): void;
  destroy(): void;
}

/** The part of the hls.js module the player uses. */
export interface HlsConstructor {
  new (): HlsInstance;
  isSupported(): boolean;
  Events: { ERROR: string };
}

export type LoadHls = () => Promise<HlsConstructor>;

/**
 * hls.js, fetched the first time a browser without native HLS plays a stream. Its light build
 * (about 60 % of the full one): a Trove ladder is muxed video and audio renditions, with no
 * subtitles, alternate audio or DRM for the rest to play.
 */
export const loadHlsJs: LoadHls = async () =>
  (await import("hls.js/light")).default as unknown as HlsConstructor;

export interface HlsSources {
  /** The master playlist. */
  hls: string;
  /** Played where HLS cannot be. */
  mp4: string;
}

/**
 * Starts `sources.hls` on `video` and returns the detach function, which destroys the hls.js
 * instance (its workers, buffers and requests) or drops the native source, and makes a load
 * still under way a no-op. Call it on unmount and before attaching another source.
 */
export function attachHls(
  video: HTMLVideoElement,
  sources: HlsSources,
  loadHls: LoadHls = loadHlsJs,
): () => void {
  let detached = false;
  let hls: HlsInstance | null = null;
  const playMp4 = () => {
    if (!detached) video.src = sources.mp4;
  };

  if (video.canPlayType(HLS_MIME_TYPE) !== "") {
    // One fallback: the MP4's own failure is the page's to show (the element's error event).
    const onError = () => {
      video.removeEventListener("error", onError);
      playMp4();
    };
    video.addEventListener("error", onError);
    video.src = sources.hls;
    return () => {
      detached = true;
      video.removeEventListener("error", onError);
      stopLoading(video, sources);
    };
  }

  loadHls().then(
    (Hls) => {
      if (detached) return;
      if (!Hls.isSupported()) return playMp4(); // no MediaSource (old iPhone Safari, some WebViews)
      const instance = new Hls();
      hls = instance;
      instance.on(Hls.Events.ERROR, (_event, data) => {
        // Non-fatal errors (a segment retried, a rendition switched) hls.js recovers from itself.
        if (!data.fatal || hls !== instance) return;
        instance.destroy();
        hls = null;
        playMp4();
      });
      instance.loadSource(sources.hls);
      instance.attachMedia(video);
    },
    // The chunk did not load (offline, a blocked CDN): the MP4 still may.
    playMp4,
  );
  return () => {
    detached = true;
    if (hls) {
      hls.destroy();
      hls = null;
    }
    stopLoading(video, sources);
  };
}

/**
 * Drops the source this module put on the element, so the browser stops fetching it (the spec's
 * way: no src, then load()). A src someone else has set since (React's, when the component
 * switched to a plain MP4 before this cleanup ran) is left alone.
 */
function stopLoading(video: HTMLVideoElement, sources: HlsSources): void {
  const current = video.getAttribute("src");
  if (current !== sources.hls && current !== sources.mp4) return;
  video.removeAttribute("src");
  video.load();
}
