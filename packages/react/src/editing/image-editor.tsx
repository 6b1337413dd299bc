/**
 * `<ImageEditor>`: a small crop-and-rotate dialog shown before an image is uploaded. A modal
 * `<dialog>` (the page behind is inert; Escape cancels; focus returns to the opener), rotate 90°
 * either way, a crop box with aspect presets. Everything works from the keyboard: Tab reaches the
 * buttons and the crop box, where the arrow keys move it and Shift+arrows resize it (Alt: larger
 * steps); a live region says the crop's size. The result is a File of the same type (a type the
 * browser cannot encode becomes PNG), rendered from the full-size image off the main thread.
 */
import { type KeyboardEvent, type PointerEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { type CropBox, initialCrop, moveCrop, resizeCrop } from "./crop-box.js";
import {
  type AspectPreset,
  DEFAULT_ASPECTS,
  ENGLISH_EDITOR_STRINGS,
  type ImageEditorStrings,
} from "./editor-strings.js";
import { canEditImage, encodedFile } from "./image-types.js";
import { runRender } from "./run-render.js";

export interface ImageEditorProps {
  file: File;
  /** The aspect buttons; default Free, 1:1, 4:3, 16:9. The first is chosen at the start. */
  aspects?: AspectPreset[];
  strings?: Partial<ImageEditorStrings>;
  /** The edited file (the original when nothing changed). */
  onDone(file: File): void;
  onCancel(): void;
  className?: string;
}

/** Longest side of the on-screen preview, CSS pixels (the result is rendered from the full image). */
const PREVIEW_SIZE = 480;
/** JPEG/WebP quality of the result: high enough that an edit costs no visible detail. */
const RESULT_QUALITY = 0.92;

export function ImageEditor({ file, aspects, strings, onDone, onCancel, className }: ImageEditorProps) {
  const words = useMemo(() => ({ ...ENGLISH_EDITOR_STRINGS, ...strings }), [strings]);
  const presets = aspects && aspects.length > 0 ? aspects : DEFAULT_ASPECTS;
  const dialog = useRef<HTMLDialogElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const helpId = useId();
  const [bitmap, setBitmap] = useState<ImageBitmap | null>(null);
  const [unreadable, setUnreadable] = useState(false);
  const [quarterTurns, setQuarterTurns] = useState(0);
  const [aspect, setAspect] = useState(0);
  const [crop, setCrop] = useState<CropBox | null>(null);
  const [busy, setBusy] = useState(false);
  const latest = useRef({ onDone, onCancel });
  latest.current = { onDone, onCancel };

  const ratio = presets[aspect]?.ratio ?? null;
  const turned = quarterTurns % 2 === 1;
  const bounds = useMemo(
    () =>
      bitmap
        ? { width: turned ? bitmap.height : bitmap.width, height: turned ? bitmap.width : bitmap.height }
        : null,
    [bitmap, turned],
  );

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element.open) element.showModal();
    return () => {
      if (element.open) element.close();
      opener?.focus();
    };
  }, []);

  useEffect(() => {
    let live = true;
    let decoded: ImageBitmap | undefined;
    createImageBitmap(file, { imageOrientation: "from-image" }).then(
      (result) => {
        decoded = result;
        if (live) setBitmap(result);
        else result.close();
      },
      () => live && setUnreadable(true),
    );
    return () => {
      live = false;
      decoded?.close();
    };
  }, [file]);

  // A new image, turn or aspect starts from the largest centred box of the chosen ratio.
  useEffect(() => {
    if (bounds) setCrop(initialCrop(bounds, ratio));
  }, [bounds, ratio]);

  useEffect(() => {
    const element = canvas.current;
    if (!bitmap || !bounds || !element) return;
    const scale = Math.min(1, PREVIEW_SIZE / Math.max(bounds.width, bounds.height));
    element.width = Math.max(1, Math.round(bounds.width * scale));
    element.height = Math.max(1, Math.round(bounds.height * scale));
    const context = element.getContext("2d");
    if (!context) return;
    context.setTransform(scale, 0, 0, scale, 0, 0);
    context.translate(bounds.width / 2, bounds.height / 2);
    context.rotate((quarterTurns * Math.PI) / 2);
    context.drawImage(bitmap, -bitmap.width / 2, -bitmap.height / 2);
  }, [bitmap, quarterTurns, bounds]);

  function onCropKey(event: KeyboardEvent<HTMLDivElement>) {
    if (!crop || !bounds) return;
    const arrows: Record<string, [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    };
    const direction = arrows[event.key];
    if (!direction) return;
    event.preventDefault();
    const share = event.altKey ? 0.1 : 0.01;
    const dx = direction[0] * Math.max(1, Math.round(bounds.width * share));
    const dy = direction[1] * Math.max(1, Math.round(bounds.height * share));
    setCrop(event.shiftKey ? resizeCrop(crop, bounds, dx, dy, ratio) : moveCrop(crop, bounds, dx, dy));
  }

  function onPointerDown(event: PointerEvent<HTMLElement>, mode: "move" | "resize") {
    if (!crop || !bounds || !stage.current) return;
    event.preventDefault();
    event.stopPropagation();
    const target = event.currentTarget;
    target.setPointerCapture(event.pointerId);
    const start = { x: event.clientX, y: event.clientY, crop };
    const perCssPixel = bounds.width / stage.current.getBoundingClientRect().width;
    const move = (next: globalThis.PointerEvent) => {
      const dx = Math.round((next.clientX - start.x) * perCssPixel);
      const dy = Math.round((next.clientY - start.y) * perCssPixel);
      setCrop(
        mode === "move"
          ? moveCrop(start.crop, bounds, dx, dy)
          : resizeCrop(start.crop, bounds, dx, ratio === null ? dy : 0, ratio),
      );
    };
    const stop = () => {
      target.removeEventListener("pointermove", move);
      target.removeEventListener("pointerup", stop);
      target.removeEventListener("pointercancel", stop);
    };
    target.addEventListener("pointermove", move);
    target.addEventListener("pointerup", stop);
    target.addEventListener("pointercancel", stop);
  }

  async function apply() {
    if (!crop || busy) return;
    setBusy(true);
    try {
      const type = canEditImage(file) ? file.type : "image/png";
      const blob = await runRender(file, { quarterTurns, crop, type, quality: RESULT_QUALITY });
      latest.current.onDone(blob ? encodedFile(file, blob) : file);
    } catch {
      setUnreadable(true);
      setBusy(false);
    }
  }

  const percent = (value: number, of: number) => `${(value / of) * 100}%`;

  return (
    <dialog
      ref={dialog}
      className={["trove-editor", className].filter(Boolean).join(" ")}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        latest.current.onCancel();
      }}
    >
      <h2 id={titleId} className="trove-editor__title">
        {words.title}
      </h2>
      <div className="trove-editor__toolbar">
        <button type="button" onClick={() => setQuarterTurns((turns) => (turns + 3) % 4)} disabled={!bitmap}>
          {words.rotateLeft}
        </button>
        <button type="button" onClick={() => setQuarterTurns((turns) => (turns + 1) % 4)} disabled={!bitmap}>
          {words.rotateRight}
        </button>
        <fieldset className="trove-editor__aspects">
          <legend>{words.aspect}</legend>
          {presets.map((preset, index) => (
            <button
              key={preset.label}
              type="button"
              aria-pressed={index === aspect}
              onClick={() => setAspect(index)}
              disabled={!bitmap}
            >
              {preset.label}
            </button>
          ))}
        </fieldset>
      </div>
      {unreadable ? (
        <p className="trove-editor__message" role="alert">
          {words.unreadable}
        </p>
      ) : !bitmap || !bounds ? (
        <p className="trove-editor__message">{words.loading}</p>
      ) : (
        <div
          ref={stage}
          className="trove-editor__stage"
          style={{ aspectRatio: `${bounds.width} / ${bounds.height}` }}
        >
          <canvas ref={canvas} className="trove-editor__canvas" role="img" aria-label={file.name} />
          {crop && (
            <div
              className="trove-editor__crop"
              // Its own keyboard model (arrows move, Shift+arrows resize): an application region, so
              // screen readers pass the arrow keys through instead of reading on.
              role="application"
              // biome-ignore lint/a11y/noNoninteractiveTabindex: role="application" is operated by keyboard.
              tabIndex={0}
              aria-label={words.cropArea}
              aria-describedby={helpId}
              data-crop={`${crop.x},${crop.y},${crop.width},${crop.height}`}
              style={{
                left: percent(crop.x, bounds.width),
                top: percent(crop.y, bounds.height),
                width: percent(crop.width, bounds.width),
                height: percent(crop.height, bounds.height),
              }}
              onKeyDown={onCropKey}
              onPointerDown={(event) => onPointerDown(event, "move")}
            >
              <span
                className="trove-editor__handle"
                aria-hidden="true"
                onPointerDown={(event) => onPointerDown(event, "resize")}
              />
            </div>
          )}
        </div>
      )}
      <p id={helpId} className="trove-editor__help">
        {words.cropHelp}
      </p>
      <p className="trove-editor__size" aria-live="polite">
        {crop ? words.cropSize(crop.width, crop.height) : ""}
      </p>
      <div className="trove-editor__actions">
        <button type="button" onClick={() => latest.current.onCancel()}>
          {words.cancel}
        </button>
        <button type="button" className="trove-editor__apply" onClick={apply} disabled={!crop || busy}>
          {words.apply}
        </button>
      </div>
    </dialog>
  );
}
