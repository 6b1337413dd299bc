/**
 * A row "from a link" runs as an UploadTask, like a file's, so that `useUpload` schedules, cancels
 * and retries it with the same code. The server fetches the URL (`client.uploadFromUrl`, one
 * request): there is no byte progress to report and nothing to pause; cancelling aborts the
 * request (the server may still store the file if it had already fetched it).
 */
import type { RemoteUploadOptions, TroveUploadClient, UploadResult, UploadTask } from "@trove/sdk/upload";

export function linkTask(
  client: Pick<TroveUploadClient, "uploadFromUrl">,
  url: string,
  options: Omit<RemoteUploadOptions, "signal">,
): UploadTask {
  const controller = new AbortController();
  const promise = client.uploadFromUrl(url, { ...options, signal: controller.signal });
  return {
    promise,
    paused: false,
    pausable: false,
    pause: () => false,
    resume: () => undefined,
    abort: (reason?: unknown) => controller.abort(reason),
    // biome-ignore lint/suspicious/noThenProperty: the task is awaitable, as the SDK's.
    then: <A = UploadResult, B = never>(
      onFulfilled?: ((value: UploadResult) => A | PromiseLike<A>) | null,
      onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
    ) => promise.then(onFulfilled, onRejected),
    catch: (onRejected) => promise.catch(onRejected),
    finally: (onFinally) => promise.finally(onFinally),
  };
}

/** The name a link's row shows: its last path segment, decoded, or the host when there is none. */
export function nameOfLink(url: URL): string {
  const segment = url.pathname.split("/").filter(Boolean).pop();
  if (!segment) return url.hostname;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The URL typed into the field when it is an absolute http(s) URL, else undefined. */
export function parseLink(text: string): URL | undefined {
  try {
    const url = new URL(text.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}
