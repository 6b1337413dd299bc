/**
 * # Logging: what the server writes to its log, and what it never writes
 *
 * ```ts
 * import { lazyRequestLogger, loggerOptions, redactUrl } from "../logging/index.js";
 *
 * Fastify({ logger: loggerOptions(config.logLevel), childLoggerFactory: lazyRequestLogger });
 * log.warn({ url: redactUrl(url) }, "...");   // any URL or error text headed for a log line
 * ```
 *
 * - ./logger-options.ts: pino's options (serializers, the redacted header and secret paths).
 * - ./log-redaction.ts: signed and presigned URLs, keys in query strings and secrets in any string
 *   become `[REDACTED]` (REDACTED) before they are logged.
 * - ./request-logger.ts: a request's logger makes its pino child only when it writes a line.
 */
export { REDACTED, redactStrings, redactUrl } from "./log-redaction.js";
export { loggerOptions } from "./logger-options.js";
export { lazyRequestLogger } from "./request-logger.js";
