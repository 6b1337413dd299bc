import { readFileSync } from "node:fs";
import { sourceConfigurationSchemas } from "@trove/schema";
import { UsageError } from "../cli-errors.js";

/**
 * Configuration fields that take a boolean in some source type (`forward_header`): there
 * `--config key=true|false` sends a boolean; every other value is sent as a string.
 */
const BOOLEAN_FIELDS: ReadonlySet<string> = new Set(
  Object.values(sourceConfigurationSchemas).flatMap((schema) =>
    Object.entries(schema.shape)
      .filter(
        ([, field]) => (field as { safeParse(value: unknown): { success: boolean } }).safeParse(true).success,
      )
      .map(([key]) => key),
  ),
);

/**
 * The configuration object of `sources create|update`: `--config-json '{…}'` first, then every
 * `--config key=value` on top. A value `@path` is read from that file (`@-`: standard input),
 * which keeps secrets out of the shell history and suits `service_account_json`.
 */
export function sourceConfiguration(
  pairs: string[] | undefined,
  json: string | undefined,
): Record<string, unknown> | undefined {
  if (pairs === undefined && json === undefined) return undefined;
  const configuration: Record<string, unknown> = {};
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (error) {
      throw new UsageError(`--config-json is not valid JSON (${(error as Error).message}).`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new UsageError(`--config-json must be a JSON object, e.g. '{"region":"eu-west-1"}'.`);
    }
    Object.assign(configuration, parsed);
  }
  for (const pair of pairs ?? []) {
    const at = pair.indexOf("=");
    if (at <= 0)
      throw new UsageError(`--config takes key=value, e.g. --config region=eu-west-1 (got "${pair}").`);
    const key = pair.slice(0, at).trim();
    const raw = readValue(pair.slice(at + 1), key);
    configuration[key] =
      BOOLEAN_FIELDS.has(key) && (raw === "true" || raw === "false") ? raw === "true" : raw;
  }
  return configuration;
}

function readValue(value: string, key: string): string {
  if (!value.startsWith("@")) return value;
  const path = value.slice(1);
  try {
    return readFileSync(path === "-" ? 0 : path, "utf8").replace(/\r?\n$/, "");
  } catch (error) {
    throw new UsageError(
      `cannot read the value of ${key} from ${path === "-" ? "standard input" : path} (${(error as NodeJS.ErrnoException).code ?? error}).`,
    );
  }
}
