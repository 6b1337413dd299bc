/**
 * One GET timed from request to parsed JSON, with its answer checked: a benchmark that times
 * wrong answers (an error page, another file) would measure nothing.
 */
export async function timedGet(
  url: string,
  key: string | undefined,
  check: (body: unknown) => boolean,
  expected = "",
): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, key ? { headers: { "x-api-key": key } } : {});
  const body = (await response.json()) as unknown;
  const ms = performance.now() - started;
  if (!response.ok || !check(body)) {
    throw new Error(`GET ${url}: ${response.status} ${JSON.stringify(body).slice(0, 200)}${expected}`);
  }
  return ms;
}

/** Whether a file list's first row is `name`. */
export const firstFileIs = (name: string) => (body: unknown) =>
  (body as { files?: Array<{ name?: string }> }).files?.[0]?.name === name;
