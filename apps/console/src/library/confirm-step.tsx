import { type ReactNode, useEffect, useRef } from "react";

/**
 * The question before something permanent (a delete): the action and Cancel, with focus on Cancel,
 * the safe answer, as it opens.
 */
export function ConfirmStep(props: {
  id: string;
  question: ReactNode;
  action: string;
  busyAction: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div role="alertdialog" aria-labelledby={props.id} className="confirm">
      <span id={props.id}>{props.question}</span>
      <button type="button" className="danger" disabled={props.busy} onClick={props.onConfirm}>
        {props.busy ? props.busyAction : props.action}
      </button>
      <button type="button" disabled={props.busy} onClick={props.onCancel} ref={cancel}>
        Cancel
      </button>
    </div>
  );
}
