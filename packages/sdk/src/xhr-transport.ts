/**
 * fetch cannot report upload progress in browsers (streaming request bodies are missing from
 * Safari and Firefox, and need HTTP/2 in Chrome), so when a caller asks for progress and
 * XMLHttpRequest exists, requests that carry file bytes go through it. The answer is turned into
 * a standard Response so that error handling is the same on both paths.
 */
export interface XhrRequest {
  method: string;
  url: string;
  headers: Readonly<Record<string, string>>;
  body: XMLHttpRequestBodyInit;
  signal: AbortSignal;
  onUploadProgress: (loaded: number, total: number) => void;
}

export function canUseXhr(): boolean {
  return typeof XMLHttpRequest !== "undefined";
}

export function xhrSend(request: XhrRequest): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = () => request.signal.removeEventListener("abort", onAbort);
    xhr.open(request.method, request.url);
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) request.onUploadProgress(event.loaded, event.total);
    };
    xhr.onload = () => {
      settle();
      // Statuses without a body (204, 205, 304) must be given a null body.
      const bodyless = xhr.status === 204 || xhr.status === 205 || xhr.status === 304;
      resolve(
        new Response(bodyless ? null : xhr.responseText, {
          status: xhr.status,
          statusText: xhr.statusText,
          headers: parseHeaders(xhr.getAllResponseHeaders()),
        }),
      );
    };
    xhr.onerror = () => {
      settle();
      reject(new TypeError("Network request failed"));
    };
    xhr.onabort = () => {
      settle();
      reject(new DOMException("The operation was aborted", "AbortError"));
    };
    if (request.signal.aborted) {
      reject(new DOMException("The operation was aborted", "AbortError"));
      return;
    }
    request.signal.addEventListener("abort", onAbort, { once: true });
    xhr.send(request.body);
  });
}

function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}
