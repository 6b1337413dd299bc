import type { FileDetails } from "@trove/schema";
import type { FileListItem, TroveClient } from "@trove/sdk";
import { useEffect, useState } from "react";
import { formatBytes } from "../library/format-bytes.js";
import { CopyButton } from "./copy-button.js";
import { TransformPlayground } from "./transform-playground.js";

/** The selected file's record (GET /api/v1/files/{fileNo}), its URL, and the transform playground. */
export function DetailsPanel(props: { client: TroveClient; file: FileListItem; onClose: () => void }) {
  const { client, file } = props;
  const [details, setDetails] = useState<FileDetails | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    setDetails(null);
    setError(null);
    client.files.get(file.file_no).then(
      (answer) => current && setDetails(answer),
      (caught: unknown) => current && setError(caught instanceof Error ? caught.message : String(caught)),
    );
    return () => {
      current = false;
    };
  }, [client, file.file_no]);

  return (
    // Escape anywhere in the panel closes it, as its Close button does.
    <aside
      className="details"
      aria-labelledby="details-title"
      onKeyDown={(event) => {
        if (event.key === "Escape") props.onClose();
      }}
    >
      <header className="details__head">
        <h2 id="details-title">{file.name}</h2>
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </header>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {details ? (
        <>
          <dl className="details__fields">
            {fieldsOf(details).map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <h3>Delivery URL</h3>
          <p className="url">
            <output className="url__text">{details.url}</output>{" "}
            <CopyButton text={details.url} label="Copy the delivery URL" />
          </p>
          <TransformPlayground client={client} details={details} />
        </>
      ) : error ? null : (
        <p className="muted">Loading…</p>
      )}
    </aside>
  );
}

/** The record's fields as label/text pairs (rendered as React text: names and paths are user input). */
function fieldsOf(details: FileDetails): Array<[string, string]> {
  const { width, height } = details.dimensions;
  const fields: Array<[string, string]> = [
    ["File number", details.file_no],
    ["Name", details.name],
    ["Format", details.format],
    ["Size", `${formatBytes(details.size)} (${details.size} bytes)`],
    ["Dimensions", width !== null && height !== null ? `${width} × ${height}` : "—"],
    ["Path", details.path ?? "—"],
    ["Folder", details.folder?.path ?? "—"],
    ["Uploaded", details.uploaded_at],
    ["Uploaded by", details.uploaded_by],
    ["Private", details.is_private ? "Yes" : "No"],
  ];
  if (details.expires_at) fields.push(["Expires", details.expires_at]);
  if (details.duration !== undefined && details.duration !== null)
    fields.push(["Duration", `${details.duration} s`]);
  return fields;
}
