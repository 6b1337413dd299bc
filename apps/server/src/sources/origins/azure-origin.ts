/**
 * The reader of `azure` sources: the object at `{path}` is the blob `{path}` in the source's
 * `container_name`, in the storage account its `connection_string` names (an account key, or a
 * SAS token with a `BlobEndpoint`; both work).
 *
 * - Transport: `@azure/storage-blob`, sent through the SSRF guard (./azure-origin-http.ts), so a
 *   `BlobEndpoint` that resolves to a private or loopback address is refused unless trusted.
 * - One request per read, no retries: the delivery host has a deadline and a cache, and an
 *   `unavailable` answer lets the client retry; the SDK's default (4 tries, seconds of back-off)
 *   would spend the deadline waiting.
 * - A conditional read sends `If-None-Match` when the cached copy has an etag, else
 *   `If-Modified-Since` (never both: HTTP says a server ignores the date when it has the tag).
 * - The connection string is parsed once, when the reader is made. One that does not parse does
 *   not throw there: every `read()` fails with `denied`, so the caller handles one error path.
 */
import { Readable } from "node:stream";
import {
  type BlobDownloadResponseParsed,
  BlobServiceClient,
  type ContainerClient,
} from "@azure/storage-blob";
import type { AzureConfiguration } from "@trove/schema";
import type { Connector, LookupAll } from "../../network/guarded-connector.js";
import { classifyAzureFailure } from "./azure-origin-errors.js";
import { createGuardedAzureHttpClient } from "./azure-origin-http.js";
import { guardOriginBody } from "./origin-body.js";
import { type OriginError, originError } from "./origin-error.js";
import type { OriginContext, OriginReader, OriginReadRequest, OriginReadResult } from "./origin-reader.js";

export interface AzureOriginContext extends OriginContext {
  /** Tests only: resolves host names instead of the system resolver. */
  lookup?: LookupAll;
  /** Tests only: opens the (vetted) connections instead of undici's connector. */
  connect?: Connector;
}

export function createAzureOriginReader(
  configuration: AzureConfiguration,
  context: AzureOriginContext,
): OriginReader {
  const container = openContainer(configuration, context);

  return {
    async read(request: OriginReadRequest): Promise<OriginReadResult> {
      if (!("client" in container)) throw container.error;
      const { signal, maxBytes, validators } = request;
      if (signal.aborted) throw originError("timeout", context.sourceName, "the read was aborted");
      const conditions = validators?.etag
        ? { ifNoneMatch: validators.etag }
        : validators?.lastModified
          ? { ifModifiedSince: validators.lastModified }
          : {};

      let response: BlobDownloadResponseParsed;
      try {
        response = await container.client.getBlobClient(request.path).download(0, undefined, {
          abortSignal: signal,
          conditions,
          // The body is streamed once; a broken stream is the caller's to retry, not a re-download.
          maxRetryRequests: 0,
        });
      } catch (error) {
        const failure = classifyAzureFailure(error, context.sourceName, signal);
        if (failure.kind === "not-modified") return failure;
        throw failure.error;
      }

      const stream = response.readableStreamBody;
      // In Node the SDK's body is a stream.Readable (its retrying wrapper); the type says less.
      if (!(stream instanceof Readable)) {
        throw originError("unavailable", context.sourceName, "the response has no body");
      }
      const size = response.contentLength;
      if (size !== undefined && size > maxBytes) {
        stream.destroy();
        throw originError("too_large", context.sourceName, `${size} bytes, the limit is ${maxBytes}`);
      }
      return {
        kind: "object",
        object: {
          body: guardOriginBody(stream, { maxBytes, signal, sourceName: context.sourceName }),
          size,
          contentType: response.contentType,
          etag: response.etag,
          lastModified: response.lastModified,
        },
      };
    },
  };
}

function openContainer(
  configuration: AzureConfiguration,
  context: AzureOriginContext,
): { client: ContainerClient } | { error: OriginError } {
  const httpClient = createGuardedAzureHttpClient({
    trustedRanges: context.trustedRanges,
    ...(context.lookup ? { lookup: context.lookup } : {}),
    ...(context.connect ? { connect: context.connect } : {}),
  });
  try {
    const service = BlobServiceClient.fromConnectionString(configuration.connection_string, {
      httpClient,
      retryOptions: { maxTries: 1 },
    });
    return { client: service.getContainerClient(configuration.container_name) };
  } catch {
    // The SDK's parse errors may quote the string; only this fixed cause is ever shown.
    return { error: originError("denied", context.sourceName, "connection string is not valid") };
  }
}
