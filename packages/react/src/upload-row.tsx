import { formatBytes, formatDuration, formatSpeed } from "./format-transfer.js";
import type { UploadItem, UploadStatus } from "./upload-state.js";
import type { UseUploadResult } from "./use-upload.js";

const STATUS_TEXT: Record<UploadStatus, string> = {
  idle: "Waiting",
  uploading: "Uploading",
  paused: "Paused",
  done: "Uploaded",
  error: "Failed",
  aborted: "Cancelled",
};

type Controls = Pick<UseUploadResult, "pause" | "resume" | "abort" | "retry" | "remove">;

/**
 * One file of the uploader: name, progress, what is sent and confirmed, and its buttons. Buttons
 * show a verb and carry the file name for screen readers ("Pause photo.jpg"); a button that does
 * not apply is not rendered, so Tab goes only through what can be done now.
 */
export function UploadRow({ item, controls }: { item: UploadItem; controls: Controls }) {
  const { id, file, status } = item;
  const progressId = `${id}-progress`;
  return (
    <li className="trove-upload" data-state={status} data-name={file.name}>
      <span className="trove-upload__name" id={`${id}-name`}>
        {file.name}
      </span>
      <progress
        className="trove-upload__bar"
        id={progressId}
        max={100}
        value={item.percent}
        aria-labelledby={`${id}-name`}
      />
      <span className="trove-upload__status">
        {STATUS_TEXT[status]}
        {status === "uploading" || status === "paused" ? ` · ${transferText(item)}` : ""}
      </span>
      {status === "error" && item.error ? (
        <span className="trove-upload__error" role="alert">
          {item.error.message}
        </span>
      ) : null}
      <span className="trove-upload__actions">
        {status === "uploading" && item.pausable ? (
          <RowButton verb="Pause" name={file.name} onClick={() => controls.pause(id)} />
        ) : null}
        {status === "paused" ? (
          <RowButton verb="Resume" name={file.name} onClick={() => controls.resume(id)} />
        ) : null}
        {status === "idle" || status === "uploading" || status === "paused" ? (
          <RowButton verb="Cancel" name={file.name} onClick={() => controls.abort(id)} />
        ) : null}
        {status === "error" || status === "aborted" ? (
          <RowButton verb="Retry" name={file.name} onClick={() => controls.retry(id)} />
        ) : null}
        {status === "done" || status === "error" || status === "aborted" ? (
          <RowButton verb="Remove" name={file.name} onClick={() => controls.remove(id)} />
        ) : null}
      </span>
    </li>
  );
}

function RowButton({ verb, name, onClick }: { verb: string; name: string; onClick: () => void }) {
  return (
    <button
      type="button"
      className={`trove-upload__button trove-upload__button--${verb.toLowerCase()}`}
      onClick={onClick}
    >
      {verb}
      <span className="trove-sr-only"> {name}</span>
    </button>
  );
}

function transferText(item: UploadItem): string {
  const parts = [`${formatBytes(item.sent)} of ${formatBytes(item.total)}`];
  if (item.confirmed > 0 && item.confirmed < item.total)
    parts.push(`${formatBytes(item.confirmed)} confirmed`);
  if (item.speed !== undefined) parts.push(formatSpeed(item.speed));
  if (item.secondsLeft !== undefined) parts.push(`${formatDuration(item.secondsLeft)} left`);
  return parts.join(" · ");
}
