/**
 * The `s3` origin reader, on the `minio` client: the object `{path}` in `bucket`.
 *
 * - AWS by default (`s3.amazonaws.com` in `region`); `endpoint` names an S3-compatible store
 *   instead (MinIO, DigitalOcean Spaces, R2), addressed path-style.
 * - `access_key`/`secret_key` sign the request (SigV4); without them the read is anonymous, for a
 *   public bucket.
 * - One GET per read, conditional (If-None-Match / If-Modified-Since) when a cached copy exists.
 *   minio's typed getters cannot send conditions, so the read goes through its signed request
 *   primitive with the expected statuses 200 and 304.
 * - A client and a socket per read (constructing minio's client sends nothing): a changed
 *   configuration is used by the next read, and nothing holds the credentials afterwards.
 */
import type { IncomingMessage } from "node:http";
import type { S3Configuration } from "@trove/schema";
import { Client } from "minio";
import { isRemoteFetchError } from "../../network/remote-fetch-error.js";
import { guardedNodeAgent, type NetworkDoubles } from "./guarded-node-agent.js";
import { OriginError, originError } from "./origin-error.js";
import type { OriginContext, OriginReader, OriginReadRequest, OriginReadResult } from "./origin-reader.js";
import { readOriginResponse } from "./read-origin-response.js";

const AWS_ENDPOINT = "https://s3.amazonaws.com";

/** S3 error codes that mean "these credentials (or this configuration) cannot read here". */
const DENIED_CODES = new Set([
  "AccessDenied",
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "InvalidToken",
  "ExpiredToken",
  "AllAccessDisabled",
  "AuthorizationHeaderMalformed",
  "NoSuchBucket",
  "PermanentRedirect",
]);
const NOT_FOUND_CODES = new Set(["NoSuchKey", "NotFound", "NoSuchObject"]);

class S3OriginClient extends Client {
  /** A signed GET whose answer is returned for 200 and 304 (anything else throws minio's S3Error). */
  conditionalGet(bucketName: string, objectName: string, headers: Record<string, string>, region: string) {
    return this.makeRequestAsync({ method: "GET", bucketName, objectName, headers }, "", [200, 304], region);
  }
}

export function createS3OriginReader(
  configuration: S3Configuration,
  context: OriginContext & NetworkDoubles,
): OriginReader {
  const endpoint = new URL(configuration.endpoint ?? AWS_ENDPOINT);
  const label = `source "${context.sourceName}" endpoint`;
  const fail = (error: unknown, signal: AbortSignal): never => {
    if (error instanceof OriginError) throw error;
    if (signal.aborted) throw originError("timeout", context.sourceName, "no answer before the deadline");
    if (isRemoteFetchError(error) && error.code === "REMOTE_URL_FORBIDDEN") {
      throw originError(
        "forbidden_address",
        context.sourceName,
        "the endpoint resolves to a private address",
        {
          detail: error.detail ?? error.message,
        },
      );
    }
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === "string" && NOT_FOUND_CODES.has(code))
      throw originError("not_found", context.sourceName, code);
    if (typeof code === "string" && DENIED_CODES.has(code))
      throw originError("denied", context.sourceName, code);
    throw originError("unavailable", context.sourceName, typeof code === "string" ? code : "request failed", {
      detail: error instanceof Error ? error.message : String(error),
      cause: error,
    });
  };

  return {
    async read(request: OriginReadRequest): Promise<OriginReadResult> {
      let agent: ReturnType<typeof guardedNodeAgent>;
      try {
        agent = guardedNodeAgent(endpoint, context, label);
      } catch (error) {
        return fail(error, request.signal);
      }
      const onAbort = () => agent.destroy();
      request.signal.addEventListener("abort", onAbort, { once: true });
      try {
        request.signal.throwIfAborted();
        const client = new S3OriginClient({
          endPoint: endpoint.hostname.replace(/^\[|\]$/g, ""),
          ...(endpoint.port ? { port: Number(endpoint.port) } : {}),
          useSSL: endpoint.protocol === "https:",
          region: configuration.region,
          pathStyle: configuration.endpoint !== undefined,
          accessKey: configuration.access_key ?? "",
          secretKey: configuration.secret_key ?? "",
          transportAgent: agent,
        });
        const headers: Record<string, string> = {};
        if (request.validators?.etag) headers["if-none-match"] = request.validators.etag;
        else if (request.validators?.lastModified)
          headers["if-modified-since"] = request.validators.lastModified.toUTCString();
        const response: IncomingMessage = await client.conditionalGet(
          configuration.bucket,
          request.path,
          headers,
          configuration.region,
        );
        const result = readOriginResponse(response, request, context.sourceName);
        if (result.kind === "object") {
          result.object.body.once("close", () => {
            request.signal.removeEventListener("abort", onAbort);
            agent.destroy();
          });
        } else {
          request.signal.removeEventListener("abort", onAbort);
          agent.destroy();
        }
        return result;
      } catch (error) {
        request.signal.removeEventListener("abort", onAbort);
        agent.destroy();
        return fail(error, request.signal);
      }
    },
  };
}
