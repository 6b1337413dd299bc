import { TroveImage, TroveVideo, type UploadResult } from "@trove/react";
import { type ReactNode, useState } from "react";
import { UploadPanel } from "./upload-panel.js";

// HEIC too: an iPhone photo is shown through delivery URLs, which convert it to WebP/AVIF/JPEG.
const IMAGE_FORMATS = new Set(["png", "jpg", "jpeg", "webp", "gif", "avif", "heic"]);
// The containers the server transcodes (MP4/MOV by their ftyp, WebM/Matroska by EBML).
const VIDEO_FORMATS = new Set(["mp4", "mov", "m4v", "webm", "mkv"]);

/** The uploader, then a gallery of what it uploaded (images, then videos), newest first. */
export function App() {
  const [uploaded, setUploaded] = useState<UploadResult[]>([]);
  const images = uploaded.filter((file) => IMAGE_FORMATS.has(file.format));
  const videos = uploaded.filter((file) => VIDEO_FORMATS.has(file.format));
  return (
    <main>
      <h1>Upload to Trove</h1>
      <UploadPanel onComplete={(file) => setUploaded((all) => [file, ...all])} />
      <Gallery id="gallery-title" title="Gallery" files={images}>
        {(file) => <TroveImage src={file} alt={file.name} width={240} height={180} placeholder="blur" />}
      </Gallery>
      <Gallery id="videos-title" title="Videos" files={videos}>
        {/* An HLS ladder of 240p and 360p (never above the upload's own height), the server's
            thumb_ar still as poster. The server renders the ladder on its first request: the
            original MP4 plays meanwhile, and the stream takes over once ready if playback has
            not started. */}
        {(file) => <TroveVideo src={file} streaming={[240, 360]} controls playsInline preload="metadata" />}
      </Gallery>
    </main>
  );
}

/** A titled list of uploaded files, each shown by `children`; nothing while there are none. */
function Gallery(props: {
  id: string;
  title: string;
  files: UploadResult[];
  children: (file: UploadResult) => ReactNode;
}) {
  if (props.files.length === 0) return null;
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      <ul className="gallery">
        {props.files.map((file) => (
          <li key={file.file_no}>{props.children(file)}</li>
        ))}
      </ul>
    </section>
  );
}
