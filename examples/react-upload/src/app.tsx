import { TroveImage, TroveUploader, type UploadResult } from "@trove/react";
import { useState } from "react";

// HEIC too: an iPhone photo is shown through delivery URLs, which convert it to WebP/AVIF/JPEG.
const IMAGE_FORMATS = new Set(["png", "jpg", "jpeg", "webp", "gif", "avif", "heic"]);

/** The uploader, then a gallery of what it uploaded (images only), newest first. */
export function App() {
  const [uploaded, setUploaded] = useState<UploadResult[]>([]);
  const images = uploaded.filter((file) => IMAGE_FORMATS.has(file.format));
  return (
    <main>
      <h1>Upload to Trove</h1>
      <TroveUploader
        options={{ folder: "react-example" }}
        maxSize={100 * 1024 * 1024}
        hint="Any file up to 100 MB; files over 8 MB go up in parts and can pause"
        onComplete={(file) => setUploaded((all) => [file, ...all])}
      />
      {images.length > 0 ? (
        <section aria-labelledby="gallery-title">
          <h2 id="gallery-title">Gallery</h2>
          <ul className="gallery">
            {images.map((file) => (
              <li key={file.file_no}>
                <TroveImage src={file} alt={file.name} width={240} height={180} placeholder="blur" />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </main>
  );
}
