import type { HttpAnswer } from "./http-answer.js";

/**
 * fetch cannot report upload progress in browsers (streaming request bodies are missing from
 * Safari and Firefox, and need HTTP/2 in Chrome), so when a caller asks for progress and
 * XMLHttpRequest exists, requests that carry file bytes go through it. The answer is read through
 * the same HttpAnswer interface as a fetch Response, so error handling is the same on both paths.
 */
export interface XhrRequest {
  method: string;
  url: string;
  body: XMLHttpRequestBodyInit;
  signal: AbortSignal;
  onUploadProgress: ((loaded: number, total: number) => void) | undefined;
}

/** Through XMLHttpRequest when the caller wants progress and it exists, else `otherwise()`. */
export function sendWithProgress(
  request: XhrRequest | undefined,
  otherwise: () => Promise<HttpAnswer>,
): Promise<HttpAnswer> {
  return request?.onUploadProgress && typeof XMLHttpRequest !== "undefined" ? xhrSend(request) : otherwise();
}

function xhrSend(request: XhrRequest): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = () => request.signal.removeEventListener("abort", onAbort);
    xhr.open(request.method, request.url);
    xhr.setRequestHeader("content-type", "application/octet-stream");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) request.onUploadProgress?.(event.loaded, event.total);
    };
    xhr.onload = () => {
      settle();
      const { status, statusText, responseText } = xhr;
      resolve({
        ok: status >= 200 && status < 300,
        status,
        statusText,
        headers: { get: (name) => xhr.getResponseHeader(name) },
        text: async () => responseText,
      });
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
