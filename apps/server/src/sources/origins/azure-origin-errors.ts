/**
 * What the Azure SDK throws, as the reader contract's `OriginError`s.
 *
 * The SDK's `RestError` carries the request (its URL holds a SAS token when the connection string
 * has one) and the service's error body; neither is ever attached. Messages and `detail` are built
 * from the status, the service's error code (`BlobNotFound`, `AuthenticationFailed`) and the
 * guard's own codes only.
 */
import { type OriginError, originError } from "./origin-error.js";

/** The parts of the SDK's `RestError` (and of Node and guard errors it wraps) that are read. */
interface SdkErrorShape {
  name?: unknown;
  code?: unknown;
  statusCode?: unknown;
}

/** `not-modified` when the service answered 304 to the conditional read, else the error to throw. */
export type AzureFailure = { kind: "not-modified" } | { kind: "error"; error: OriginError };

export function classifyAzureFailure(error: unknown, sourceName: string, signal: AbortSignal): AzureFailure {
  const { name, code, statusCode } = (
    typeof error === "object" && error !== null ? error : {}
  ) as SdkErrorShape;
  const serviceCode = typeof code === "string" ? code : undefined;
  const status = typeof statusCode === "number" ? statusCode : undefined;
  const detail = `azure ${status ?? "-"} ${serviceCode ?? (typeof name === "string" ? name : "error")}`;
  const fail = (kind: OriginError["kind"], cause: string): AzureFailure => ({
    kind: "error",
    error: originError(kind, sourceName, cause, { detail }),
  });

  if (status === 304) return { kind: "not-modified" };
  if (signal.aborted || name === "AbortError") return fail("timeout", "the read was aborted");
  // The guard's refusal (src/network) reaches here as the socket error's code.
  if (serviceCode === "REMOTE_URL_FORBIDDEN") {
    return fail("forbidden_address", "the blob endpoint resolves to a private or loopback address");
  }
  if (serviceCode === "AZURE_ENDPOINT_SCHEME")
    return fail("denied", "the blob endpoint must use http or https");
  if (status === 404) {
    // A missing container fails every path: that is the configuration, not the object.
    return serviceCode === "ContainerNotFound"
      ? fail("denied", "the container does not exist")
      : fail("not_found", "no such blob");
  }
  if (status === 401 || status === 403) return fail("denied", `status ${status}`);
  if (status !== undefined && status >= 500) return fail("unavailable", `status ${status}`);
  if (status !== undefined) return fail("unavailable", `unexpected status ${status}`);
  return fail("unavailable", "the blob endpoint could not be reached");
}
