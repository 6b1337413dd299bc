/// <reference path="./hls-light.d.ts" />
/**
 * Puts an HLS playlist on a <video>: natively where the browser plays HLS itself (Safari, iOS,
 * some Android and Chromium builds), else with hls.js over Media Source Extensions, loaded by
 * dynamic import only then, so pages that never stream (and Safari) never download it. Where
 * neither works, or the stream fails for good (a server that does not render streams yet
 * answers 404), the MP4 plays instead. Nothing here runs at import: SSR-safe.
 *
 * A Trove server renders a ladder on its first request and answers 202 with `Retry-After` until
 * it is ready: the master is asked for first (waitForStream), the MP4 plays meanwhile, and the
 * stream takes over once ready if playback has not started (a viewer's MP4 is never cut).
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
  fetchStream: typeof fetch = (...args) => fetch(...args),
): () => void {
  let detached = false;
  let stopStream: (() => void) | undefined;
  const waiting = new AbortController();
  const playMp4 = () => {
    if (!detached && video.getAttribute("src") !== sources.mp4) video.src = sources.mp4;
  };
  waitForStream(sources.hls, playMp4, waiting.signal, fetchStream).then((ready) => {
    if (detached) return;
    // Ready after the MP4 began playing: the viewer keeps it (the next mount streams).
    if (!ready || video.currentTime > 0 || (video.getAttribute("src") === sources.mp4 && !video.paused)) {
      return playMp4();
    }
    stopStream = startStream(video, sources, loadHls, playMp4, () => detached);
  }, playMp4);
  return () => {
    detached = true;
    waiting.abort();
    stopStream?.();
    stopLoading(video, sources);
  };
}

/** Longest wait for a ladder the server is still rendering, ms; then the MP4 stays. */
export const STREAM_WAIT_MS = 10 * 60_000;

/**
 * Asks for the master until it is ready: true on a 2xx, false on any other final answer or after
 * STREAM_WAIT_MS. On the first 202 (being rendered) `meanwhile` runs (the MP4 starts loading);
 * the next ask follows the answer's `Retry-After` (1 to 30 s).
 */
export async function waitForStream(
  url: string,
  meanwhile: () => void,
  signal: AbortSignal,
  fetchStream: typeof fetch,
): Promise<boolean> {
  const deadline = Date.now() + STREAM_WAIT_MS;
  for (let asked = 0; ; asked++) {
    signal.throwIfAborted();
    const response = await fetchStream(url, { signal, cache: "no-store" });
    signal.throwIfAborted();
    if (response.status !== 202) return response.ok;
    if (asked === 0) meanwhile();
    const retryAfter = Number(response.headers.get("retry-after"));
    const delay = 1000 * Math.min(30, Math.max(1, Number.isFinite(retryAfter) ? retryAfter : 2));
    if (Date.now() + delay > deadline) return false;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, delay);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
  }
}

/** The stream on the element, natively or by hls.js; returns what stops it. */
function startStream(
  video: HTMLVideoElement,
  sources: HlsSources,
  loadHls: LoadHls,
  playMp4: () => void,
  isDetached: () => boolean,
): () => void {
  let hls: HlsInstance | null = null;
  if (video.canPlayType(HLS_MIME_TYPE) !== "") {
    // One fallback: the MP4's own failure is the page's to show (the element's error event).
    const onError = () => {
      video.removeEventListener("error", onError);
      playMp4();
    };
    video.addEventListener("error", onError);
    video.src = sources.hls;
    return () => video.removeEventListener("error", onError);
  }

  loadHls().then(
    (Hls) => {
      if (isDetached()) return;
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
    if (hls) {
      hls.destroy();
      hls = null;
    }
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
