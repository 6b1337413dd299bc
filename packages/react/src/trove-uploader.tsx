import type { UploadResult } from "@trove/sdk/upload";
import {
  type ClipboardEvent,
  type DragEvent,
  type ReactNode,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import { ImageEditor, prepareImage, readImageSize } from "./editing/index.js";
import { checkFile, type FileRejection, inputAccept } from "./file-checks.js";
import { fileKind } from "./file-type-icon.js";
import { formatBytes } from "./format-transfer.js";
import { brokenImageRule, hasImageLimits, type ImageLimits } from "./image-limits.js";
import { LinkField } from "./link-field.js";
import { announcementsBetween } from "./progress-announcement.js";
import { UploadRow } from "./upload-row.js";
import type { UploadItem } from "./upload-state.js";
import { percent, plural, type UploaderStrings, uploaderStrings } from "./uploader-strings.js";
import { usePageSources } from "./use-page-sources.js";
import { type UseUploadOptions, useUpload } from "./use-upload.js";

/** Where files come from, besides drag and drop and paste: the picker, the camera, a link. */
export type UploaderSource = "files" | "camera" | "link";

export interface TroveUploaderProps extends UseUploadOptions {
  /** As `<input accept>`: `image/*`, `.pdf`, `video/mp4`… Also checked on dropped and pasted files. */
  accept?: string;
  /** Largest file in bytes; larger ones are refused before anything is sent. */
  maxSize?: number;
  /** Several files at once. Default true. */
  multiple?: boolean;
  /** Mobile: the drop zone's picker opens the camera (`"environment"` back, `"user"` front). */
  capture?: "user" | "environment";
  disabled?: boolean;
  /** The drop zone's text; default `strings.dropLabel`. */
  label?: ReactNode;
  /** A line under it, e.g. "Images up to 10 MB"; it also describes the file input. */
  hint?: ReactNode;
  /** Called with the files refused by `accept`, `maxSize` or `limits` (they are also listed in the uploader). */
  onReject?: (rejections: FileRejection[]) => void;
  className?: string;
  /** Called once per uploaded file. */
  onComplete?: (result: UploadResult, item: UploadItem) => void;
  /** Words to replace (any subset of the English defaults in uploader-strings.ts), and `locale`. */
  strings?: Partial<UploaderStrings>;
  /** `"page"`: files dropped anywhere on the page, or pasted while it has focus, are taken. Default `"zone"`. */
  dropTarget?: "zone" | "page";
  /** The buttons beside the drop zone. Default all: `["files", "camera", "link"]`. */
  sources?: readonly UploaderSource[];
  /** Pixel limits checked before an image is sent (mirror your upload policy's `min_width`…). */
  limits?: ImageLimits;
  /** Scale images down (and re-encode them) in the browser before sending. */
  resize?: ResizeOptions;
  /**
   * An "Edit" button on each waiting image (crop, rotate, aspect presets). Files then wait for
   * "Upload" unless `autoStart` is set: there would be no time to edit them otherwise.
   */
  editor?: boolean | EditorOptions;
}

/** Resize and re-encode images in the browser before they are sent (see `prepareImage`). */
export interface ResizeOptions {
  maxWidth?: number;
  maxHeight?: number;
  /** 0..1, for JPEG and WebP output. */
  quality?: number;
}

/** Crop presets of the editor: `ratio` is width / height, null for a free crop. */
export interface EditorOptions {
  aspects?: Array<{ label: string; ratio: number | null }>;
}

const ALL_SOURCES: readonly UploaderSource[] = ["files", "camera", "link"];

/**
 * A drop-in uploader: a drop zone that is also the file input's label (click, Enter or Space
 * opens the picker), drag and drop (on the zone, or the whole page with `dropTarget="page"`),
 * paste, the camera, a link; then one row per file with a preview, progress and its buttons.
 * Unstyled: class names only (`trove-uploader`, `trove-upload`, …); import
 * `@trove/react/styles.css` for the default look, light and dark.
 */
export function TroveUploader({
  accept,
  maxSize,
  multiple = true,
  capture,
  disabled = false,
  label,
  hint,
  onReject,
  className,
  strings: stringOverrides,
  dropTarget = "zone",
  sources = ALL_SOURCES,
  limits,
  resize,
  editor,
  ...uploadOptions
}: TroveUploaderProps) {
  const strings = useMemo(() => uploaderStrings(stringOverrides), [stringOverrides]);
  const { locale } = strings;
  const upload = useUpload({ ...uploadOptions, autoStart: uploadOptions.autoStart ?? !editor });
  const [editing, setEditing] = useState<UploadItem | undefined>(undefined);
  const [rejections, setRejections] = useState<FileRejection[]>([]);
  const [dragging, setDragging] = useState(false);
  const announcement = useAnnouncement(upload.items, strings);
  const inputId = useId();
  const hintId = useId();
  const labelId = useId();
  const camera = useRef<HTMLInputElement>(null);

  const take = (files: FileList | File[] | null | undefined) => {
    if (disabled || !files || files.length === 0) return;
    const list = multiple ? Array.from(files) : Array.from(files).slice(0, 1);
    // Without pixel limits or a resize there is nothing to decode: files are taken in the same
    // turn as the event (as before either existed), so nothing waits on a promise.
    if (hasImageLimits(limits) || resize) void takeDecoded(list);
    else settle(list.map((file) => ({ file, rejection: checkBasics(file) })));
  };

  const checkBasics = (file: File) =>
    checkFile(file, { accept, maxSize }, (bytes: number) => formatBytes(bytes, locale), strings);

  const takeDecoded = async (list: File[]) => {
    const checked = [];
    for (const file of list)
      checked.push({ file, rejection: checkBasics(file) ?? (await checkPixels(file)) });
    const accepted = await Promise.all(
      checked.filter((entry) => !entry.rejection).map(({ file }) => prepare(file)),
    );
    settle([
      ...checked.filter((entry) => entry.rejection),
      ...accepted.map((file) => ({ file, rejection: undefined })),
    ]);
  };

  const settle = (checked: Array<{ file: File; rejection: FileRejection | undefined }>) => {
    const refused = checked.flatMap(({ rejection }) => (rejection ? [rejection] : []));
    const accepted = checked.flatMap(({ file, rejection }) => (rejection ? [] : [file]));
    setRejections(refused);
    if (refused.length > 0) onReject?.(refused);
    if (accepted.length > 0) upload.add(accepted);
  };

  /** The file as it will be sent: resized and re-encoded when `resize` asks (images only). */
  const prepare = (file: File): Promise<File> =>
    resize ? prepareImage(file, resize) : Promise.resolve(file);

  const checkPixels = async (file: File): Promise<FileRejection | undefined> => {
    if (!hasImageLimits(limits) || fileKind(file) !== "image") return undefined;
    const pixels = await readImageSize(file); // null where the browser cannot decode it (HEIC): the server judges
    const rule = pixels && brokenImageRule(pixels, limits, strings);
    if (!pixels || !rule) return undefined;
    return {
      file,
      reason: "dimensions",
      message: strings.rejectedDimensions(file.name, pixels.width, pixels.height, rule),
    };
  };

  const pageDragging = usePageSources(dropTarget === "page" && !disabled, take);

  const onDragOver = (event: DragEvent) => {
    if (disabled || !event.dataTransfer.types.includes("Files")) return;
    event.preventDefault(); // allows the drop
    event.dataTransfer.dropEffect = "copy";
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault(); // the page's listener (dropTarget="page") leaves it to us
    setDragging(false);
    take(event.dataTransfer.files);
  };
  const onPaste = (event: ClipboardEvent) => {
    if (event.clipboardData.files.length === 0) return;
    event.preventDefault();
    take(event.clipboardData.files);
  };
  const waiting = upload.items.filter((item) => item.status === "idle" && !item.queued).length;

  return (
    <section
      className={["trove-uploader", className].filter(Boolean).join(" ")}
      data-dragging={dragging || pageDragging || undefined}
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
          // Space opens a file input's picker in every browser; Enter does not in Chromium, though
          // users expect it of anything that looks like a button.
          onKeyDown={(event) => {
            if (event.key !== "Enter") return;
            event.preventDefault();
            event.currentTarget.click();
          }}
          onChange={(event) => {
            take(event.currentTarget.files);
            event.currentTarget.value = ""; // choosing the same file again fires change again
          }}
        />
        <svg className="trove-uploader__zone-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M12 16V4m0 0L7 9m5-5l5 5M4 15v4a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-4" />
        </svg>
        <span className="trove-uploader__label" id={labelId}>
          {label ?? strings.dropLabel}
        </span>
        {hint ? (
          <span className="trove-uploader__hint" id={hintId}>
            {hint}
          </span>
        ) : null}
      </label>
      {sources.includes("camera") || sources.includes("link") ? (
        <div className="trove-uploader__sources">
          {sources.includes("camera") ? (
            <>
              <button
                type="button"
                className="trove-uploader__source trove-uploader__source--camera"
                disabled={disabled}
                onClick={() => camera.current?.click()}
              >
                {strings.camera}
              </button>
              <input
                ref={camera}
                className="trove-uploader__input"
                type="file"
                accept="image/*,video/*"
                capture="environment"
                tabIndex={-1}
                aria-hidden="true"
                disabled={disabled}
                onChange={(event) => {
                  take(event.currentTarget.files);
                  event.currentTarget.value = "";
                }}
              />
            </>
          ) : null}
          {sources.includes("link") ? (
            <LinkField strings={strings} disabled={disabled} onLink={(url) => upload.addLink(url)} />
          ) : null}
        </div>
      ) : null}
      {pageDragging ? (
        <div className="trove-uploader__overlay" aria-hidden="true">
          <span>{strings.dropOverlay}</span>
        </div>
      ) : null}
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
              {strings.resumeStored(
                session.fileName,
                percent(Math.floor((session.confirmed / session.size) * 100), locale),
              )}{" "}
              <button
                type="button"
                className="trove-upload__button"
                onClick={() => void upload.forget(session.key)}
              >
                {strings.forget}
                <span className="trove-sr-only"> {session.fileName}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {upload.items.length > 0 ? <TotalLine items={upload.items} strings={strings} /> : null}
      {upload.items.length > 0 ? (
        <ul className="trove-uploader__list" aria-label={strings.uploadsList}>
          {upload.items.map((item) => (
            <UploadRow
              key={item.id}
              item={item}
              controls={upload}
              strings={strings}
              onEdit={
                editor && !item.link && fileKind(item.file) === "image" ? () => setEditing(item) : undefined
              }
            />
          ))}
        </ul>
      ) : null}
      {waiting > 0 ? (
        <button type="button" className="trove-uploader__start" onClick={() => upload.start()}>
          {strings.startAll(waiting, plural(strings.files, waiting, locale))}
        </button>
      ) : null}
      {editing ? (
        <ImageEditor
          file={editing.file}
          aspects={typeof editor === "object" ? editor.aspects : undefined}
          onDone={(edited) => {
            setEditing(undefined);
            void prepare(edited).then((file) => upload.replace(editing.id, file));
          }}
          onCancel={() => setEditing(undefined)}
        />
      ) : null}
      <p className="trove-sr-only" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </section>
  );
}

/** Files, and bytes sent of all of them together (a link's row counts once the server has it). */
function TotalLine({ items, strings }: { items: readonly UploadItem[]; strings: UploaderStrings }) {
  const { locale } = strings;
  let sent = 0;
  let size = 0;
  for (const item of items) {
    const total = item.result?.size ?? item.total;
    size += total;
    sent += item.status === "done" ? total : item.sent;
  }
  return (
    <p className="trove-uploader__total">
      {strings.total(
        plural(strings.files, items.length, locale),
        formatBytes(sent, locale),
        formatBytes(size, locale),
      )}
    </p>
  );
}

/** The live region's text: the latest changes, replaced as new ones come (see progress-announcement.ts). */
function useAnnouncement(items: readonly UploadItem[], strings: UploaderStrings): string {
  const previous = useRef<readonly UploadItem[]>([]);
  const [text, setText] = useState("");
  useEffect(() => {
    const said = announcementsBetween(previous.current, items, strings);
    previous.current = items;
    if (said.length > 0) setText(said.join(". "));
  }, [items, strings]);
  return text;
}
