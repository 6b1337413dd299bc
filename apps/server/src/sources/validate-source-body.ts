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
  createSourceBodySchema,
  ERROR_MESSAGES,
  isMaskedSecret,
  type ListSourcesQuery,
  listSourcesQuerySchema,
  SOURCE_SECRET_FIELDS,
  type SourceConfiguration,
  type SourceType,
  sourceConfigurationSchemas,
  type UpdateSourceBody,
  updateSourceBodySchema,
} from "@trove/schema";
import type { z } from "zod";
import { HttpError } from "../errors/http-error.js";
import { formatZodIssues } from "../plugins/errors.js";
import type { ConfigurationRecord } from "./configuration-secrets.js";

export const BODY_NOT_OBJECT_MESSAGE = "Request body must be a JSON object";

export function invalidConfiguration(): HttpError {
  return new HttpError(400, ERROR_MESSAGES.sourceConfigInvalid);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function rejectBody(body: unknown, issues: z.core.$ZodIssue[]): never {
  const configurationIssue = (issue: z.core.$ZodIssue) => issue.path[0] === "configuration";
  const others = issues.filter((issue) => !configurationIssue(issue));
  const configurationSent = isPlainObject(body) && body.configuration !== undefined;
  if (others.length === 0 && configurationSent) throw invalidConfiguration();
  // A missing configuration is a missing field like any other.
  throw new HttpError(400, formatZodIssues(configurationSent ? others : issues));
}

/** Endpoint 14 body, configuration checked against the type; a masked secret is invalid. */
export function parseCreateSourceBody(body: unknown): CreateSourceBody {
  if (!isPlainObject(body)) throw new HttpError(400, BODY_NOT_OBJECT_MESSAGE);
  const result = createSourceBodySchema.safeParse(body);
  if (!result.success) rejectBody(body, result.error.issues);
  // Nothing is stored yet, so a masked value cannot mean "keep the stored secret".
  assertNoMaskedSecret(result.data.configuration as ConfigurationRecord);
  return result.data;
}

/** Endpoint 17 body (name and/or configuration, both optional). */
export function parseUpdateSourceBody(body: unknown): UpdateSourceBody {
  if (!isPlainObject(body)) throw new HttpError(400, BODY_NOT_OBJECT_MESSAGE);
  const result = updateSourceBodySchema.safeParse(body);
  if (!result.success) rejectBody(body, result.error.issues);
  return result.data;
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

/** Endpoint 15 query. */
export function parseListSourcesQuery(query: unknown): ListSourcesQuery {
  const result = listSourcesQuerySchema.safeParse(query ?? {});
  if (!result.success) throw new HttpError(400, formatZodIssues(result.error.issues));
  return result.data;
}
