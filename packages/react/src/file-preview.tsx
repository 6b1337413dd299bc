/**
 * The picture at the start of each upload row: the image itself (an object URL of the chosen
 * file, decoded off the main thread, scaled down by CSS), a still of a video, or an icon of the
 * file's kind. Decorative next to the file's name (alt ""), so screen readers are not told twice.
 * Object URLs are revoked when the row goes or its file changes, so no file stays pinned in memory.
 */
import { useEffect, useState } from "react";
import { type FileKind, FileTypeIcon, fileKind } from "./file-type-icon.js";
import { videoPoster } from "./video-poster.js";

export function FilePreview({
  file,
  link,
  alt = "",
}: {
  file: File;
  link?: string | undefined;
  alt?: string;
}) {
  const kind: FileKind = link ? "link" : fileKind(file);
  const picture = usePicture(file, link ? "other" : kind);
  // The picture that failed to decode, if any: a new picture (another file) gets its own chance.
  const [broken, setBroken] = useState<string | undefined>(undefined);
  if (!picture || broken === picture) {
    return (
      <span className="trove-upload__preview" data-preview="icon">
        <FileTypeIcon kind={kind} />
      </span>
    );
  }
  return (
    <span className="trove-upload__preview" data-preview={kind}>
      {/* HEIC and other types this browser cannot decode fail here, and the icon takes over. */}
      <img src={picture} alt={alt} decoding="async" onError={() => setBroken(picture)} />
    </span>
  );
}

/** An object URL to show for the file, made after mount (never during render or on a server). */
function usePicture(file: File, kind: FileKind): string | undefined {
  const [url, setUrl] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (typeof URL.createObjectURL !== "function") return;
    let current: string | undefined;
    let gone = false;
    if (kind === "image" && file.size > 0) {
      current = URL.createObjectURL(file);
      setUrl(current);
    } else if (kind === "video" && file.size > 0) {
      void videoPoster(file).then((poster) => {
        if (gone) {
          if (poster) URL.revokeObjectURL(poster);
          return;
        }
        current = poster;
        setUrl(poster);
      });
    }
    return () => {
      gone = true;
      if (current) URL.revokeObjectURL(current);
      setUrl(undefined);
    };
  }, [file, kind]);
  return url;
}
