/** Wall time of one delivery GET, body read to the end, as a browser sees it; a non-2xx throws. */
export async function timedRender(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return performance.now() - started;
}
