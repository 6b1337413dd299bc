import { FilePreview } from "./file-preview.js";
import { formatBytes, formatDuration, formatSpeed } from "./format-transfer.js";
import type { UploadItem } from "./upload-state.js";
import type { UploaderStrings } from "./uploader-strings.js";
import type { UseUploadResult } from "./use-upload.js";

type Controls = Pick<UseUploadResult, "pause" | "resume" | "abort" | "retry" | "remove">;

/**
 * One file of the uploader: its preview, name and size, progress, what is sent and confirmed,
 * and its buttons. Buttons show a verb and carry the file name for screen readers ("Pause
 * photo.jpg"); a button that does not apply is not rendered, so Tab goes only through what can
 * be done now. `onEdit`, when given, offers "Edit" while the file waits.
 */
export function UploadRow({
  item,
  controls,
  strings,
  onEdit,
}: {
  item: UploadItem;
  controls: Controls;
  strings: UploaderStrings;
  onEdit?: (() => void) | undefined;
}) {
  const { id, file, status } = item;
  const { locale } = strings;
  return (
    <li className="trove-upload" data-state={status} data-name={file.name} data-link={item.link}>
      <FilePreview file={file} link={item.link} alt={strings.previewAlt} />
      <span className="trove-upload__name" id={`${id}-name`}>
        {file.name}
        {item.link ? null : <span className="trove-upload__size"> {formatBytes(item.total, locale)}</span>}
      </span>
      <progress
        className="trove-upload__bar"
        id={`${id}-progress`}
        max={100}
        // A link's row has no byte progress: indeterminate while the server fetches it.
        value={item.link && status === "uploading" ? undefined : item.percent}
        aria-labelledby={`${id}-name`}
      />
      <span className="trove-upload__status">
        {strings.status[status]}
        {!item.link && (status === "uploading" || status === "paused")
          ? ` · ${transferText(item, strings)}`
          : ""}
      </span>
      {status === "error" && item.error ? (
        <span className="trove-upload__error" role="alert">
          {item.error.message}
        </span>
      ) : null}
      <span className="trove-upload__actions">
        {status === "idle" && onEdit ? (
          <RowButton verb={strings.edit} kind="edit" name={file.name} onClick={onEdit} />
        ) : null}
        {status === "uploading" && item.pausable ? (
          <RowButton verb={strings.pause} kind="pause" name={file.name} onClick={() => controls.pause(id)} />
        ) : null}
        {status === "paused" ? (
          <RowButton
            verb={strings.resume}
            kind="resume"
            name={file.name}
            onClick={() => controls.resume(id)}
          />
        ) : null}
        {status === "idle" || status === "uploading" || status === "paused" ? (
          <RowButton
            verb={strings.cancel}
            kind="cancel"
            name={file.name}
            onClick={() => controls.abort(id)}
          />
        ) : null}
        {status === "error" || status === "aborted" ? (
          <RowButton verb={strings.retry} kind="retry" name={file.name} onClick={() => controls.retry(id)} />
        ) : null}
        {status === "done" || status === "error" || status === "aborted" ? (
          <RowButton
            verb={strings.remove}
            kind="remove"
            name={file.name}
            onClick={() => controls.remove(id)}
          />
        ) : null}
      </span>
    </li>
  );
}

function RowButton({
  verb,
  kind,
  name,
  onClick,
}: {
  verb: string;
  kind: string;
  name: string;
  onClick: () => void;
}) {
  return (
    <button type="button" className={`trove-upload__button trove-upload__button--${kind}`} onClick={onClick}>
      {verb}
      <span className="trove-sr-only"> {name}</span>
    </button>
  );
}

function transferText(item: UploadItem, strings: UploaderStrings): string {
  const { locale } = strings;
  const parts = [strings.sentOf(formatBytes(item.sent, locale), formatBytes(item.total, locale))];
  if (item.confirmed > 0 && item.confirmed < item.total)
    parts.push(strings.confirmed(formatBytes(item.confirmed, locale)));
  if (item.speed !== undefined) parts.push(formatSpeed(item.speed, locale));
  if (item.secondsLeft !== undefined) parts.push(strings.timeLeft(formatDuration(item.secondsLeft, locale)));
  return parts.join(" · ");
}
