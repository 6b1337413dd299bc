/**
 * The HTTP client the Azure SDK sends through, so that every connection it opens (the blob
 * endpoint, and any host a redirect names) passes the SSRF guard of src/network.
 *
 * The SDK's only documented hook for its transport is `StoragePipelineOptions.httpClient`, in the
 * SDK's older (core-http) shape. Ours rebuilds each request for the SDK's own default client and
 * gives it a Node agent whose `createConnection` is the guarded connector: the host is resolved once,
 * every answer is vetted (IP literals too, which Node itself would dial without any lookup), and the
 * socket is opened to the vetted address, so the address checked is the address dialled.
 *
 * The agent is set on every request, after the SDK's policies ran: a proxy taken from HTTPS_PROXY
 * by the SDK's proxy policy cannot route around the guard.
 */
import http from "node:http";
import https from "node:https";
import type { Duplex } from "node:stream";
import type { CompatResponse, RequestPolicy, WebResourceLike } from "@azure/core-http-compat";
import { toHttpHeadersLike } from "@azure/core-http-compat";
import { createDefaultHttpClient, createHttpHeaders, createPipelineRequest } from "@azure/core-rest-pipeline";
import {
  type Connector,
  createGuardedConnector,
  type GuardedConnectorOptions,
} from "../../network/guarded-connector.js";

/** Label of the guard's own error messages; they never reach a client (see azure-origin-errors.ts). */
export const AZURE_GUARD_LABEL = "azure_endpoint";

/** Node's own keep-alive defaults (Node 19+ global agent): idle sockets close after 5 s. */
const AGENT_OPTIONS = { keepAlive: true, timeout: 5_000, scheduling: "lifo" } as const;

/**
 * An http or https agent whose connections come from the guarded connector. TLS (for `https:`) is
 * done by the connector, with the host name as SNI and certificate name and verification on.
 */
function guardedNodeAgent(protocol: "http:" | "https:", connect: Connector): http.Agent {
  const agent = protocol === "https:" ? new https.Agent(AGENT_OPTIONS) : new http.Agent(AGENT_OPTIONS);
  agent.createConnection = (options, callback) => {
    const hostname = options.hostname ?? options.host ?? "localhost";
    connect(
      {
        hostname,
        host: hostname,
        protocol,
        port: String(options.port ?? (protocol === "https:" ? 443 : 80)),
        // No servername: the connector keeps a named host as SNI when it dials the vetted address.
      },
      (error, socket) => {
        if (error || !socket) {
          callback?.(error ?? new Error("connection failed"), undefined as unknown as Duplex);
          return;
        }
        // A socket handed over by callback does not get the agent's idle timeout by itself.
        socket.setTimeout(AGENT_OPTIONS.timeout);
        callback?.(null, socket);
      },
    );
    return undefined;
  };
  return agent;
}

/**
 * The `httpClient` for `BlobServiceClient.fromConnectionString(…, { httpClient })`.
 * `options` are the guard's: trusted ranges, and (tests only) an injected lookup and connector.
 */
export function createGuardedAzureHttpClient(options: GuardedConnectorOptions): RequestPolicy {
  const connect = createGuardedConnector({ label: AZURE_GUARD_LABEL, ...options });
  const agents = {
    "http:": guardedNodeAgent("http:", connect),
    "https:": guardedNodeAgent("https:", connect),
  };
  const inner = createDefaultHttpClient();
  return {
    async sendRequest(webResource: WebResourceLike): Promise<CompatResponse> {
      const protocol = new URL(webResource.url).protocol;
      if (protocol !== "http:" && protocol !== "https:") {
        throw Object.assign(new Error("the blob endpoint must use http or https"), {
          code: "AZURE_ENDPOINT_SCHEME",
        });
      }
      const request = createPipelineRequest({
        url: webResource.url,
        method: webResource.method,
        headers: createHttpHeaders(webResource.headers.toJson({ preserveCase: true })),
        body: webResource.body,
        timeout: webResource.timeout,
        requestId: webResource.requestId,
        ...(webResource.abortSignal ? { abortSignal: webResource.abortSignal } : {}),
        ...(webResource.streamResponseStatusCodes
          ? { streamResponseStatusCodes: webResource.streamResponseStatusCodes }
          : {}),
        // The SDK allows http endpoints (the emulator; on-premise stores behind a trusted range).
        allowInsecureConnection: true,
      });
      // Set after creation: the SDK's createPipelineRequest does not copy an `agent` option over.
      request.agent = agents[protocol];
      const response = await inner.sendRequest(request);
      // `request` must be the SDK's own (it carries the operation the response is parsed for).
      return { ...response, request: webResource, headers: toHttpHeadersLike(response.headers) };
    },
  };
}
