/**
 * Logger options (pino through Fastify). Request logs include headers, with credentials and every
 * source secret redacted wherever they appear up to three levels deep (`configuration.secret_key`,
 * `body.configuration.secret_key`, ...).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { DestinationStream, LoggerOptions } from "pino";
import type { LogLevel } from "./config.js";

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

export const REDACTED = "[REDACTED]";

export function loggerOptions(
  level: LogLevel,
  stream?: DestinationStream,
): LoggerOptions & { stream?: DestinationStream } {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: request.url,
          host: request.headers?.host,
          remoteAddress: request.ip,
          headers: { ...request.headers },
        };
      },
      res(reply: FastifyReply) {
        return { statusCode: reply.statusCode };
      },
    },
    ...(stream ? { stream } : {}),
  };
}
