/**
 * "From a link": a button that opens a URL field; submitting an http(s) URL adds a row that the
 * server fetches (remote-URL upload). Escape or Cancel closes the field and puts focus back on
 * the button, so a keyboard user is never left on a removed element.
 */
import { type FormEvent, useId, useRef, useState } from "react";
import { parseLink } from "./link-task.js";
import type { UploaderStrings } from "./uploader-strings.js";

export function LinkField({
  strings,
  disabled,
  onLink,
}: {
  strings: UploaderStrings;
  disabled: boolean;
  onLink: (url: URL) => void;
}) {
  const [open, setOpen] = useState(false);
  const [invalid, setInvalid] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const fieldId = useId();
  const errorId = useId();

  const close = () => {
    setOpen(false);
    setInvalid(false);
    toggle.current?.focus();
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem("url") as HTMLInputElement;
    const url = parseLink(input.value);
    if (!url) {
      setInvalid(true);
      input.focus();
      return;
    }
    onLink(url);
    close();
  };

  return (
    <>
      <button
        ref={toggle}
        type="button"
        className="trove-uploader__source trove-uploader__source--link"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => (open ? close() : setOpen(true))}
      >
        {strings.fromLink}
      </button>
      {open ? (
        <form
          className="trove-uploader__link"
          noValidate
          onSubmit={submit}
          onKeyDown={(event) => {
            if (event.key === "Escape") {
              event.stopPropagation(); // a modal around the uploader stays open
              event.preventDefault();
              close();
            }
          }}
        >
          <label htmlFor={fieldId}>{strings.linkLabel}</label>
          <input
            id={fieldId}
            name="url"
            type="url"
            inputMode="url"
            autoComplete="off"
            // biome-ignore lint/a11y/noAutofocus: the field was opened by the user to type into it.
            autoFocus
            placeholder={strings.linkPlaceholder}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? errorId : undefined}
            onChange={() => setInvalid(false)}
          />
          <button type="submit" className="trove-upload__button">
            {strings.linkSubmit}
          </button>
          <button type="button" className="trove-upload__button" onClick={close}>
            {strings.linkCancel}
          </button>
          {invalid ? (
            <span className="trove-uploader__link-error" id={errorId} role="alert">
              {strings.linkInvalid}
            </span>
          ) : null}
        </form>
      ) : null}
    </>
  );
}
