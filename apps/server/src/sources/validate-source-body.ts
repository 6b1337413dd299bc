/**
 * Request validation for the source endpoints, with the spec's 400 bodies:
 *
 * - a configuration that does not fit the type (wrong or missing fields, unknown fields, a secret
 *   sent masked where there is no stored secret to keep, a `base_url` with a trailing slash, a
 *   `configuration` that is not an object) ->
 *   400 { error: "Validation failed", message: "Configuration is invalid for the specified type" };
 * - anything else (body not a JSON object, bad or missing name, unknown or missing type, missing
 *   configuration) -> 400 { error: "Validation failed", message: "<field>: <problem>" }.
 *
 * Name and type are checked first: the configuration is checked against the type only once both
 * are valid. The messages never quote configuration values, so no secret reaches a response or a
 * log line through them.
 */
import {
  type CreateSourceBody,
  ERROR_MESSAGES,
  isMaskedSecret,
  SOURCE_SECRET_FIELDS,
  type SourceConfiguration,
  type SourceType,
  sourceConfigurationSchemas,
} from "@trove/schema";
import type { z } from "zod";
import { HttpError } from "../errors/http-error.js";
import { formatZodIssues } from "../plugins/errors.js";
import { BODY_NOT_OBJECT_MESSAGE, isJsonObject } from "../routes/endpoint-route.js";
import type { ConfigurationRecord } from "./configuration-secrets.js";

export function invalidConfiguration(): HttpError {
  return new HttpError(400, ERROR_MESSAGES.sourceConfigInvalid);
}

/**
 * The 400 of a create or update body that failed its schema (the route's `invalidRequest`): the
 * spec's configuration message when only the configuration is wrong, else the issues.
 */
export function sourceBodyError(body: unknown, issues: z.core.$ZodIssue[]): HttpError {
  if (!isJsonObject(body)) return new HttpError(400, BODY_NOT_OBJECT_MESSAGE);
  const configurationIssue = (issue: z.core.$ZodIssue) => issue.path[0] === "configuration";
  const others = issues.filter((issue) => !configurationIssue(issue));
  const configurationSent = body.configuration !== undefined;
  if (others.length === 0 && configurationSent) return invalidConfiguration();
  // A missing configuration is a missing field like any other.
  return new HttpError(400, formatZodIssues(configurationSent ? others : issues));
}

/** Nothing is stored at create, so a masked value cannot mean "keep the stored secret". */
export function assertCreatable(body: CreateSourceBody): void {
  assertNoMaskedSecret(body.configuration as ConfigurationRecord);
}

/** A merged configuration checked against its type (PATCH). */
export function parseConfiguration(
  type: SourceType,
  configuration: ConfigurationRecord,
): SourceConfiguration {
  const result = sourceConfigurationSchemas[type].safeParse(configuration);
  if (!result.success) throw invalidConfiguration();
  assertNoMaskedSecret(result.data as ConfigurationRecord);
  return result.data;
}

function assertNoMaskedSecret(configuration: ConfigurationRecord): void {
  for (const field of SOURCE_SECRET_FIELDS) {
    if (isMaskedSecret(configuration[field])) throw invalidConfiguration();
  }
}
