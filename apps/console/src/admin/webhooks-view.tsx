import type { TroveAdminClient, WebhookDelivery, WebhookEndpoint, WebhookSecret } from "@trove/sdk/admin";
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { CopyButton } from "../details/copy-button.js";
import { ErrorLine } from "./error-line.js";
import { errorText } from "./error-text.js";
import { InlineConfirm } from "./inline-confirm.js";
import { useAdminData } from "./use-admin-data.js";

/** Endpoints (add, delete), the signing secret's rotation (shown once), recent deliveries. */
export function WebhooksView({ api, workspaceNo }: { api: TroveAdminClient; workspaceNo: string }) {
  // Read here: the endpoints panel lists and changes them, the deliveries panel filters by them.
  const read = useCallback(() => api.webhooks.endpoints.list(workspaceNo), [api, workspaceNo]);
  const endpoints = useAdminData(read);
  return (
    <>
      <EndpointsPanel api={api} workspaceNo={workspaceNo} endpoints={endpoints} />
      <SecretPanel api={api} workspaceNo={workspaceNo} />
      <DeliveriesPanel api={api} workspaceNo={workspaceNo} endpoints={endpoints.data ?? []} />
    </>
  );
}

function EndpointsPanel({
  api,
  workspaceNo,
  endpoints: { data: endpoints, error, act },
}: {
  api: TroveAdminClient;
  workspaceNo: string;
  endpoints: ReturnType<typeof useAdminData<WebhookEndpoint[]>>;
}) {
  const id = useId();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState("*");

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const list = events
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    const added = await act(() =>
      api.webhooks.endpoints.add(workspaceNo, { url: url.trim(), events: list.length === 0 ? ["*"] : list }),
    );
    if (added) {
      setUrl("");
      setEvents("*");
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="admin__panel">
      <h2 id={`${id}-title`}>Webhook endpoints</h2>
      <form
        className="admin__form admin__form--grid"
        onSubmit={(event) => void add(event)}
        aria-label="Add an endpoint"
      >
        <label htmlFor={`${id}-url`}>Endpoint URL</label>
        <input
          id={`${id}-url`}
          type="url"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          required
          maxLength={2048}
        />
        <label htmlFor={`${id}-events`}>Events (comma separated; * for all)</label>
        <input id={`${id}-events`} value={events} onChange={(event) => setEvents(event.target.value)} />
        <button type="submit" disabled={url.trim() === ""}>
          Add endpoint
        </button>
      </form>
      <ErrorLine error={error} />
      {endpoints === null ? (
        <p className="loading">Loading…</p>
      ) : endpoints.length === 0 ? (
        <p className="muted">No endpoints yet.</p>
      ) : (
        <ul className="admin__list">
          {endpoints.map((endpoint) => (
            <li key={endpoint.id}>
              <code>{endpoint.url}</code> <span className="muted">{endpoint.events.join(", ")}</span>{" "}
              <InlineConfirm
                label="Delete"
                accessibleName={`Delete endpoint ${endpoint.url}`}
                question="Delete this endpoint? It gets no more deliveries."
                confirmText="Confirm delete"
                onConfirm={() => act(() => api.webhooks.endpoints.remove(workspaceNo, endpoint.id))}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The signing secret is never read here: only a rotation's new secret is shown, once. */
function SecretPanel({ api, workspaceNo }: { api: TroveAdminClient; workspaceNo: string }) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState<WebhookSecret | null>(null);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (rotated) heading.current?.focus();
  }, [rotated]);
  const rotate = async () => {
    try {
      setRotated(await api.webhooks.rotateSecret(workspaceNo));
      setConfirming(false);
      setError(null);
    } catch (caught) {
      setError(errorText(caught));
    }
  };
  return (
    <section aria-labelledby={`${id}-title`} className="admin__panel">
      <h2 id={`${id}-title`}>Signing secret</h2>
      {rotated ? (
        <div className="admin__secret">
          <p className="admin__warning" tabIndex={-1} ref={heading}>
            The new secret: copy it now, it will not be shown again.
            {rotated.previous_expires_at
              ? ` The previous one keeps signing until ${new Date(rotated.previous_expires_at).toLocaleString()}.`
              : ""}
          </p>
          <output className="admin__secret-value" aria-label="The new webhook secret">
            {rotated.secret}
          </output>
          <CopyButton text={rotated.secret} label="Copy the new webhook secret" />
          <button type="button" onClick={() => setRotated(null)}>
            Done
          </button>
        </div>
      ) : confirming ? (
        <div role="alertdialog" aria-labelledby={`${id}-question`}>
          <span id={`${id}-question`}>Rotate the secret? Receivers must switch within a day. </span>
          <button type="button" className="danger" onClick={() => void rotate()}>
            Confirm rotate
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>
          Rotate secret
        </button>
      )}
      <ErrorLine error={error} />
    </section>
  );
}

function DeliveriesPanel({
  api,
  workspaceNo,
  endpoints,
}: {
  api: TroveAdminClient;
  workspaceNo: string;
  endpoints: WebhookEndpoint[];
}) {
  const id = useId();
  const [endpointId, setEndpointId] = useState("");
  const read = useCallback(
    () =>
      api.webhookDeliveries.list(workspaceNo, {
        limit: 50,
        ...(endpointId === "" ? {} : { endpointId }),
      }),
    [api, workspaceNo, endpointId],
  );
  const { data: deliveries, error, reload, act } = useAdminData(read);
  const [notice, setNotice] = useState("");
  const redeliver = async (delivery: WebhookDelivery) => {
    if (await act(() => api.webhookDeliveries.redeliver(workspaceNo, delivery.id))) {
      setNotice(`Sent again: ${delivery.event_type}`);
    }
  };
  return (
    <section aria-labelledby={`${id}-title`} className="admin__panel">
      <h2 id={`${id}-title`}>Recent deliveries</h2>
      <label htmlFor={`${id}-endpoint`}>Show deliveries to </label>
      <select
        id={`${id}-endpoint`}
        value={endpointId}
        onChange={(event) => setEndpointId(event.target.value)}
      >
        <option value="">Every URL</option>
        {endpoints.map((endpoint) => (
          <option key={endpoint.id} value={endpoint.id}>
            {endpoint.url}
          </option>
        ))}
      </select>{" "}
      <button type="button" onClick={() => void reload()}>
        Refresh deliveries
      </button>
      <span aria-live="polite" className="muted">
        {notice}
      </span>
      <ErrorLine error={error} />
      {deliveries === null ? null : deliveries.length === 0 ? (
        <p className="muted">No deliveries yet.</p>
      ) : (
        <div className="admin__table-wrap">
          <table className="admin__table">
            <caption>Newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">URL</th>
                <th scope="col">Status</th>
                <th scope="col">Response</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last error</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id} data-delivery-id={delivery.id} data-status={delivery.status}>
                  <th scope="row">{delivery.event_type}</th>
                  <td>
                    <code>{delivery.url}</code>
                  </td>
                  <td>{delivery.status}</td>
                  <td>{delivery.response_status ?? "—"}</td>
                  <td>
                    {delivery.attempts} / {delivery.max_attempts}
                  </td>
                  <td className="admin__error-text">{delivery.last_error ?? ""}</td>
                  <td>{new Date(delivery.created_at).toLocaleString()}</td>
                  <td>
                    <button
                      type="button"
                      onClick={() => void redeliver(delivery)}
                      aria-label={`Redeliver ${delivery.event_type} of ${new Date(delivery.created_at).toLocaleString()}`}
                    >
                      Redeliver
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
