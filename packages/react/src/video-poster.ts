/**
 * A still of a chosen video for its row: the browser decodes the file in a muted, detached
 * `<video>`, seeks to ~0.1 s (the very first frame is often black) and draws that frame, scaled
 * down, into a canvas. Nothing leaves the page. Formats the browser cannot decode (HEVC in
 * Chromium, AVI…) resolve to undefined and the row shows an icon instead.
 */

const POSTER_EDGE = 160; // px: twice the row's preview box, for high-density screens
const SEEK_SECONDS = 0.1;
const GIVE_UP_MS = 8_000; // a file the browser stalls on is not worth a spinner forever

/** An object URL of a JPEG still (revoke it when done), or undefined when there is none. */
export function videoPoster(file: Blob): Promise<string | undefined> {
  if (typeof document === "undefined" || typeof URL.createObjectURL !== "function") {
    return Promise.resolve(undefined);
  }
  const source = URL.createObjectURL(file);
  const video = document.createElement("video");
  video.muted = true;
  video.playsInline = true;
  video.preload = "auto";
  return new Promise<string | undefined>((resolve) => {
    let done = false;
    const finish = (poster: string | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      video.removeAttribute("src");
      video.load(); // releases the decoder
      URL.revokeObjectURL(source);
      resolve(poster);
    };
    const timer = setTimeout(() => finish(undefined), GIVE_UP_MS);
    video.addEventListener("error", () => finish(undefined));
    video.addEventListener("loadeddata", () => {
      const duration = Number.isFinite(video.duration) ? video.duration : SEEK_SECONDS * 2;
      video.currentTime = Math.min(SEEK_SECONDS, duration / 2);
    });
    video.addEventListener("seeked", () => {
      drawFrame(video).then(finish, () => finish(undefined));
    });
    video.src = source;
  });
}

function drawFrame(video: HTMLVideoElement): Promise<string | undefined> {
  const { videoWidth: width, videoHeight: height } = video;
  if (!width || !height) return Promise.resolve(undefined);
  const scale = Math.min(1, POSTER_EDGE / Math.max(width, height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const context = canvas.getContext("2d");
  if (!context) return Promise.resolve(undefined);
  context.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) =>
    canvas.toBlob((blob) => resolve(blob ? URL.createObjectURL(blob) : undefined), "image/jpeg", 0.8),
  );
}
