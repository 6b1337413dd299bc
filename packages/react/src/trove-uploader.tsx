import type { UploadResult } from "@trove/sdk/upload";
import {
  type ClipboardEvent,
  type DragEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { checkFile, type FileRejection, inputAccept } from "./file-checks.js";
import { formatBytes } from "./format-transfer.js";
import { announcementsBetween } from "./progress-announcement.js";
import { UploadRow } from "./upload-row.js";
import type { UploadItem } from "./upload-state.js";
import { type UseUploadOptions, useUpload } from "./use-upload.js";

export interface TroveUploaderProps extends UseUploadOptions {
  /** As `<input accept>`: `image/*`, `.pdf`, `video/mp4`… Also checked on dropped and pasted files. */
  accept?: string;
  /** Largest file in bytes; larger ones are refused before anything is sent. */
  maxSize?: number;
  /** Several files at once. Default true. */
  multiple?: boolean;
  /** Mobile: open the camera (`"environment"` back, `"user"` front) instead of the file picker. */
  capture?: "user" | "environment";
  disabled?: boolean;
  /** The drop zone's text. Default "Drop files here, paste, or click to choose". */
  label?: ReactNode;
  /** A line under it, e.g. "Images up to 10 MB"; it also describes the file input. */
  hint?: ReactNode;
  /** Called with the files refused by `accept` or `maxSize` (they are also listed in the uploader). */
  onReject?: (rejections: FileRejection[]) => void;
  className?: string;
  /** Called once per uploaded file. */
  onComplete?: (result: UploadResult, item: UploadItem) => void;
}

/**
 * A drop-in uploader: a drop zone that is also the file input's label (click, Enter or Space
 * opens the picker), drag and drop, paste, then one row per file with progress and its buttons.
 * Unstyled: class names only (`trove-uploader`, `trove-upload`, …); import
 * `@trove/react/styles.css` for the default look, light and dark.
 */
export function TroveUploader({
  accept,
  maxSize,
  multiple = true,
  capture,
  disabled = false,
  label = "Drop files here, paste, or click to choose",
  hint,
  onReject,
  className,
  ...uploadOptions
}: TroveUploaderProps) {
  const upload = useUpload(uploadOptions);
  const [rejections, setRejections] = useState<FileRejection[]>([]);
  const [dragging, setDragging] = useState(false);
  const announcement = useAnnouncement(upload.items);
  const inputId = useId();
  const hintId = useId();
  const labelId = useId();

  const take = (files: FileList | File[] | null | undefined) => {
    if (disabled || !files || files.length === 0) return;
    const list = multiple ? Array.from(files) : Array.from(files).slice(0, 1);
    const refused: FileRejection[] = [];
    const accepted: File[] = [];
    for (const file of list) {
      const rejection = checkFile(file, { accept, maxSize }, formatBytes);
      if (rejection) refused.push(rejection);
      else accepted.push(file);
    }
    setRejections(refused);
    if (refused.length > 0) onReject?.(refused);
    if (accepted.length > 0) upload.add(accepted);
  };

  const onDragOver = (event: DragEvent) => {
    if (disabled || !event.dataTransfer.types.includes("Files")) return;
    event.preventDefault(); // allows the drop
    event.dataTransfer.dropEffect = "copy";
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    take(event.dataTransfer.files);
  };
  const onPaste = (event: ClipboardEvent) => {
    if (event.clipboardData.files.length === 0) return;
    event.preventDefault();
    take(event.clipboardData.files);
  };

  return (
    <section
      className={["trove-uploader", className].filter(Boolean).join(" ")}
      data-dragging={dragging || undefined}
      data-disabled={disabled || undefined}
      // A region named by the drop zone's text: drops and pastes anywhere in it are taken.
      aria-labelledby={labelId}
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      onPaste={onPaste}
    >
      <label className="trove-uploader__zone" htmlFor={inputId}>
        <input
          id={inputId}
          className="trove-uploader__input"
          type="file"
          multiple={multiple}
          accept={inputAccept(accept)}
          capture={capture}
          disabled={disabled}
          aria-describedby={hint ? hintId : undefined}
          onChange={(event) => {
            take(event.currentTarget.files);
            event.currentTarget.value = ""; // choosing the same file again fires change again
          }}
        />
        <span className="trove-uploader__label" id={labelId}>
          {label}
        </span>
        {hint ? (
          <span className="trove-uploader__hint" id={hintId}>
            {hint}
          </span>
        ) : null}
      </label>
      {rejections.length > 0 ? (
        // The alert wraps the list: an <ul> may not carry role="alert" itself.
        <div className="trove-uploader__rejections" role="alert">
          <ul>
            {rejections.map((rejection) => (
              <li key={`${rejection.file.name}-${rejection.reason}`} data-reason={rejection.reason}>
                {rejection.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {upload.resumable.length > 0 ? (
        <ul className="trove-uploader__resumable">
          {upload.resumable.map((session) => (
            <li key={session.key}>
              Resume {session.fileName} ({Math.floor((session.confirmed / session.size) * 100)}%): choose the
              file again.{" "}
              <button
                type="button"
                className="trove-upload__button"
                onClick={() => void upload.forget(session.key)}
              >
                Forget<span className="trove-sr-only"> {session.fileName}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {upload.items.length > 0 ? (
        <ul className="trove-uploader__list" aria-label="Uploads">
          {upload.items.map((item) => (
            <UploadRow key={item.id} item={item} controls={upload} />
          ))}
        </ul>
      ) : null}
      <p className="trove-sr-only" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </section>
  );
}

/** The live region's text: the latest changes, replaced as new ones come (see progress-announcement.ts). */
function useAnnouncement(items: readonly UploadItem[]): string {
  const previous = useRef<readonly UploadItem[]>([]);
  const [text, setText] = useState("");
  useEffect(() => {
    const said = announcementsBetween(previous.current, items);
    previous.current = items;
    if (said.length > 0) setText(said.join(". "));
  }, [items]);
  return text;
}
