/** An error for `--json` output: the sentence plus the fields a script branches on. */
export function errorJson(error: unknown, sentence: string): Record<string, unknown> {
  const fields = error as { status?: unknown; code?: unknown; requestId?: unknown };
  return {
    message: sentence.replace(/^Error: /, ""),
    ...(typeof fields.status === "number" ? { status: fields.status } : {}),
    ...(typeof fields.code === "string" ? { code: fields.code } : {}),
    ...(typeof fields.requestId === "string" ? { request_id: fields.requestId } : {}),
  };
}
