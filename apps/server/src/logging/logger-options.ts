/**
 * Logger options (pino through Fastify). Request logs include headers, with credentials and every
 * source secret redacted wherever they appear up to three levels deep (`configuration.secret_key`,
 * `body.configuration.secret_key`, ...). URLs (`req.url`, the `referer` header) and logged errors
 * (message, stack, any URL they carry) go through `redactUrl` (./log-redaction.ts): signed part
 * URLs, presigned S3 URLs and keys in a query string never reach the log. Responses log only their
 * status.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { type DestinationStream, type LoggerOptions, stdSerializers } from "pino";
import type { LogLevel } from "../config.js";
import { REDACTED, redactStrings, redactUrl } from "./log-redaction.js";

/** Configuration fields of sources that are secrets (masked in responses, redacted in logs). */
export const SECRET_FIELDS = [
  "access_key",
  "secret_key",
  "connection_string",
  "service_account_json",
] as const;

const CREDENTIAL_HEADERS = ['headers["x-api-key"]', "headers.authorization", "headers.cookie"];

export const REDACT_PATHS: string[] = [
  ...CREDENTIAL_HEADERS.flatMap((h) => [h, `req.${h}`, `request.${h}`]),
  "apiKey",
  "*.apiKey",
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`, `*.*.*.${field}`]),
  "webhookSecret",
  "*.webhookSecret",
];

export function loggerOptions(
  level: LogLevel,
  stream?: DestinationStream,
): LoggerOptions & { stream?: DestinationStream } {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      req(request: FastifyRequest) {
        const headers = { ...request.headers };
        if (typeof headers.referer === "string") headers.referer = redactUrl(headers.referer);
        return {
          method: request.method,
          // Not every `req` a line carries is a request (a hand-made object may have no url).
          url: typeof request.url === "string" ? redactUrl(request.url) : request.url,
          host: request.headers?.host,
          remoteAddress: request.ip,
          headers,
        };
      },
      err(error: Error) {
        return redactStrings(stdSerializers.err(error));
      },
      res(reply: FastifyReply) {
        return { statusCode: reply.statusCode };
      },
    },
    ...(stream ? { stream } : {}),
  };
}
