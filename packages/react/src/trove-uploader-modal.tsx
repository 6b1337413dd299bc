/**
 * `<TroveUploader>` in a modal `<dialog>`: `showModal()` makes the rest of the page inert (focus
 * stays inside, screen readers see only the dialog), Escape and the close button call `onClose`,
 * and focus goes back to what had it before the dialog opened (usually the button that opened it).
 * The parent owns `open`, as with any controlled component. The uploader stays mounted while the
 * dialog is closed, so uploads go on (and their rows are there when it opens again).
 */
import { useEffect, useId, useMemo, useRef } from "react";
import { TroveUploader, type TroveUploaderProps } from "./trove-uploader.js";
import { uploaderStrings } from "./uploader-strings.js";

export interface TroveUploaderModalProps extends TroveUploaderProps {
  open: boolean;
  /** Escape, the close button or a click on the backdrop. */
  onClose: () => void;
  /** The dialog's heading; default `strings.modalTitle`. */
  title?: string;
  /** Class of the `<dialog>` (the uploader inside keeps `className`). */
  dialogClassName?: string;
}

export function TroveUploaderModal({
  open,
  onClose,
  title,
  dialogClassName,
  ...uploaderProps
}: TroveUploaderModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const strings = useMemo(() => uploaderStrings(uploaderProps.strings), [uploaderProps.strings]);
  const latestClose = useRef(onClose);
  latestClose.current = onClose;

  useEffect(() => {
    const element = dialog.current;
    if (!open || !element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element.open) element.showModal();
    return () => {
      if (element.open) element.close();
      opener?.focus();
    };
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click's keyboard twin is Escape (onCancel).
    <dialog
      ref={dialog}
      className={["trove-uploader-modal", dialogClassName].filter(Boolean).join(" ")}
      aria-labelledby={titleId}
      // Escape: the dialog would close itself; the parent decides instead (it sets open={false}).
      onCancel={(event) => {
        event.preventDefault();
        latestClose.current();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) latestClose.current(); // the backdrop
      }}
    >
      {/* Rendered while closed too: closing the dialog must not cancel the uploads in it. */}
      <div className="trove-uploader-modal__body">
        <header className="trove-uploader-modal__header">
          <h2 id={titleId}>{title ?? strings.modalTitle}</h2>
          <button
            type="button"
            className="trove-uploader-modal__close"
            aria-label={strings.close}
            onClick={() => latestClose.current()}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
          </button>
        </header>
        <TroveUploader {...uploaderProps} />
      </div>
    </dialog>
  );
}
