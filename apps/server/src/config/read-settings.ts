/**
 * The one place the environment is parsed: every declared setting (or the few an area asks for)
 * through its kind's parser, all invalid variables reported at once as
 * `Invalid environment: NAME: message; NAME: message`.
 */
import { z } from "zod";
import { ConfigError } from "./config-error.js";
import { SETTINGS, type SettingName, type SettingValues } from "./settings.js";

/** Environment variables as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** `NAME: message; NAME: message` of a zod error. */
export function formatIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "env"}: ${issue.message}`).join("; ");
}

const NAMES = Object.keys(SETTINGS) as SettingName[];

export function readSettings(env: Environment): SettingValues;
export function readSettings<K extends SettingName>(
  env: Environment,
  names: readonly K[],
): Pick<SettingValues, K>;
export function readSettings(
  env: Environment,
  names: readonly SettingName[] = NAMES,
): Partial<SettingValues> {
  const schema = z.object(Object.fromEntries(names.map((name) => [name, SETTINGS[name].schema])));
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new ConfigError(`Invalid environment: ${formatIssues(parsed.error)}`);
  return parsed.data as Partial<SettingValues>;
}
