import type { TroveClient, Usage } from "@trove/sdk";
import { useEffect, useState } from "react";
import { formatBytes } from "../library/format-bytes.js";
import { UsageChart } from "./usage-chart.js";

const DAY_CHOICES = [7, 30, 90] as const;

/** GET /api/v1/usage: what the workspace stores against its quotas, and what was delivered per day. */
export function UsagePage({ client }: { client: TroveClient }) {
  const [days, setDays] = useState<number>(30);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    setError(null);
    client.usage.get({ days }).then(
      (answer) => current && setUsage(answer),
      (caught: unknown) => current && setError(caught instanceof Error ? caught.message : String(caught)),
    );
    return () => {
      current = false;
    };
  }, [client, days]);

  return (
    <main className="page usage">
      <h1>Usage</h1>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {usage ? (
        <>
          <section aria-labelledby="usage-stored">
            <h2 id="usage-stored">Stored</h2>
            <dl className="usage__totals">
              <Total
                id="usage-files"
                label="Files"
                used={usage.files}
                quota={usage.max_files}
                format={(count) => count.toLocaleString("en")}
              />
              <Total
                id="usage-storage"
                label="Storage"
                used={usage.storage_bytes}
                quota={usage.max_storage_bytes}
                format={formatBytes}
              />
            </dl>
          </section>
          <section aria-labelledby="usage-delivered">
            <h2 id="usage-delivered">Delivered per day (UTC)</h2>
            <label className="usage__days">
              <span>Days</span>
              <select value={days} onChange={(event) => setDays(Number(event.target.value))}>
                {DAY_CHOICES.map((choice) => (
                  <option key={choice} value={choice}>
                    Last {choice} days
                  </option>
                ))}
              </select>
            </label>
            <UsageChart days={usage.days} />
            <div className="table-scroll">
              <table className="usage__table">
                <caption className="visually-hidden">Requests, bytes served and renders per UTC day</caption>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Requests</th>
                    <th scope="col">Bytes served</th>
                    <th scope="col">Renders</th>
                  </tr>
                </thead>
                <tbody>
                  {[...usage.days].reverse().map((day) => (
                    <tr key={day.date}>
                      <th scope="row">{day.date}</th>
                      <td>{day.requests.toLocaleString("en")}</td>
                      <td data-bytes={day.bytes_served}>{formatBytes(day.bytes_served)}</td>
                      <td>{day.renders.toLocaleString("en")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </>
      ) : error ? null : (
        <p className="loading">Loading…</p>
      )}
    </main>
  );
}

/** One total; with a quota, "used of quota" and a meter of the share used. */
function Total(props: {
  id: string;
  label: string;
  used: number;
  quota: number | null;
  format: (value: number) => string;
}) {
  const { used, quota, format } = props;
  return (
    <div className="usage__total">
      <dt id={`${props.id}-label`}>{props.label}</dt>
      <dd>
        <span data-value={used}>{format(used)}</span>
        {quota === null ? (
          <span className="muted"> (no quota)</span>
        ) : (
          <>
            {" "}
            of <span data-quota={quota}>{format(quota)}</span>
            <meter
              className="usage__meter"
              aria-labelledby={`${props.id}-label`}
              min={0}
              max={quota}
              low={quota * 0.8}
              high={quota * 0.95}
              optimum={0}
              value={Math.min(used, quota)}
            >
              {Math.round((used / Math.max(quota, 1)) * 100)}%
            </meter>
          </>
        )}
      </dd>
    </div>
  );
}
