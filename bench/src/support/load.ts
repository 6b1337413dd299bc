/** A fixed-duration load run with autocannon (in this process), reduced to what the table needs. */
import autocannon from "autocannon";

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  latencyMean: number;
  requests: number;
  bytesPerSecond: number;
}

export async function runLoad(options: {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: Buffer;
  /** A body per request instead of `body` (e.g. each with content of its own). */
  nextBody?: () => Buffer;
  /** A path (and query) per request instead of the URL's (e.g. a random file's). */
  nextPath?: () => string;
  connections: number;
  durationSeconds: number;
}): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? "GET",
    headers: options.headers ?? {},
    ...(options.body ? { body: options.body } : {}),
    ...(options.nextBody || options.nextPath
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                ...(options.nextBody ? { body: options.nextBody() } : {}),
                ...(options.nextPath ? { path: options.nextPath() } : {}),
              }),
            },
          ],
        }
      : {}),
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 30,
  });
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0 || result.requests.total === 0) {
    throw new Error(
      `load on ${options.url}: ${result.requests.total} requests, ${result.non2xx} non-2xx, ` +
        `${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return {
    requestsPerSecond: result.requests.total / (result.duration || options.durationSeconds),
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    latencyMean: result.latency.average,
    requests: result.requests.total,
    bytesPerSecond: result.throughput.average,
  };
}

/** A multipart/form-data body: text fields first, then the file, as browsers and the SDK send it. */
export function formBody(
  fields: Record<string, string>,
  file: { field: string; name: string; type: string; bytes: Buffer },
): { body: Buffer; contentType: string } {
  const boundary = `----trovebench${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\n` +
        `Content-Type: ${file.type}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
