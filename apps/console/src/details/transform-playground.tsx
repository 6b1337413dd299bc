import { type FileDetails, safeParseTransform } from "@trove/schema";
import { deliveryUrl, type TroveClient } from "@trove/sdk";
import { useEffect, useId, useState } from "react";
import { CopyButton } from "./copy-button.js";

const PRESETS = [
  { label: "Width 300", transform: "w_300" },
  { label: "Square thumbnail", transform: "w_300,h_300,c_fill" },
  { label: "WebP", transform: "f_webp" },
] as const;

/**
 * A transform string checked as it is typed by the shared grammar (@trove/schema's
 * safeParseTransform, the parser the server runs), its error shown as text, and a live preview of
 * the URL it makes. A private file's plain URL answers 404, so its preview is a signed URL the
 * server makes for that transform.
 */
export function TransformPlayground({ client, details }: { client: TroveClient; details: FileDetails }) {
  const inputId = useId();
  const [text, setText] = useState<string>(PRESETS[0].transform);
  const parsed = text === "" ? null : safeParseTransform(text);
  const valid = parsed?.success === true;
  const [url, setUrl] = useState<string | null>(null);
  const [urlError, setUrlError] = useState<string | null>(null);

  useEffect(() => {
    setUrlError(null);
    if (!valid) {
      setUrl(null);
      return;
    }
    if (!details.is_private) {
      try {
        setUrl(
          deliveryUrl(
            { url: details.url, path: details.path, workspace_no: details.workspace.workspace_no },
            text,
          ),
        );
      } catch (caught) {
        setUrl(null);
        setUrlError(caught instanceof Error ? caught.message : String(caught));
      }
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      client.files.signedUrl(details.file_no, { transform: text }).then(
        (signed) => current && setUrl(signed.url),
        (caught: unknown) =>
          current && setUrlError(caught instanceof Error ? caught.message : String(caught)),
      );
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, details, text, valid]);

  const problem = parsed && !parsed.success ? parsed.error.message : urlError;
  return (
    <section className="playground" aria-labelledby={`${inputId}-title`}>
      <h3 id={`${inputId}-title`}>Transform playground</h3>
      <div className="playground__presets">
        {PRESETS.map((preset) => (
          <button
            key={preset.transform}
            type="button"
            aria-pressed={text === preset.transform}
            onClick={() => setText(preset.transform)}
          >
            {preset.label}
          </button>
        ))}
      </div>
      <label htmlFor={inputId}>Transform</label>
      <input
        id={inputId}
        type="text"
        value={text}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${inputId}-error` : undefined}
        onChange={(event) => setText(event.target.value)}
      />
      {problem ? (
        <p id={`${inputId}-error`} className="error" role="status">
          {problem}
        </p>
      ) : null}
      {url && !problem ? (
        <>
          <img className="playground__preview" src={url} alt={`${details.name} with ${text}`} />
          <p className="url">
            <output className="url__text">{url}</output>{" "}
            <CopyButton text={url} label="Copy the transformed URL" />
          </p>
        </>
      ) : null}
    </section>
  );
}
