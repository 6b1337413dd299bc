/**
 * The upload record in a direct or remote upload's success body: `data` of the default wrapped
 * `{ success: true, data }`, or the body itself when the server runs with
 * TROVE_UPLOAD_RESPONSE=flat. Error bodies pass through unchanged.
 */
export function uploadRecord(body: unknown): Record<string, unknown> {
  const record = (body ?? {}) as Record<string, unknown>;
  const data = record.data;
  return record.success === true && typeof data === "object" && data !== null
    ? (data as Record<string, unknown>)
    : record;
}
