import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { UsageError } from "../cli-errors.js";

/** The server `npm start` runs (trove-server's default HOST and PORT). */
export const DEFAULT_BASE_URL = "http://127.0.0.1:3000";

export interface CliConfig {
  apiKey: string | undefined;
  baseUrl: string;
  assetsUrl: string | undefined;
  /** The config file that was read, if any: named in error messages. */
  file: string | undefined;
}

interface FileConfig {
  apiKey?: string;
  baseUrl?: string;
  assetsUrl?: string;
}

const FILE_KEYS = ["apiKey", "baseUrl", "assetsUrl"] as const;

/** `$XDG_CONFIG_HOME/trove/config.json`, else `~/.config/trove/config.json`. */
export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = nonEmpty(env.XDG_CONFIG_HOME) ?? join(homedir(), ".config");
  return join(base, "trove", "config.json");
}

/**
 * Each setting comes from the first place that has it:
 *   1. the environment: TROVE_API_KEY, TROVE_BASE_URL, TROVE_ASSETS_URL
 *   2. the config file: `--config <file>`, else TROVE_CONFIG, else the default path
 *      (`{ "apiKey", "baseUrl", "assetsUrl" }`)
 *   3. defaults: baseUrl http://127.0.0.1:3000; no API key; no assets URL
 * A file named explicitly must exist; the default one may be missing.
 */
export async function loadConfig(
  explicitFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CliConfig> {
  const named = nonEmpty(explicitFile) ?? nonEmpty(env.TROVE_CONFIG);
  const path = named ?? defaultConfigPath(env);
  const fromFile = await readConfigFile(path, named !== undefined);
  const baseUrl = nonEmpty(env.TROVE_BASE_URL) ?? fromFile?.baseUrl ?? DEFAULT_BASE_URL;
  return {
    apiKey: nonEmpty(env.TROVE_API_KEY) ?? fromFile?.apiKey,
    baseUrl: checkUrl(baseUrl, "base URL"),
    assetsUrl: optionalUrl(nonEmpty(env.TROVE_ASSETS_URL) ?? fromFile?.assetsUrl, "assets URL"),
    file: fromFile ? path : undefined,
  };
}

async function readConfigFile(path: string, required: boolean): Promise<FileConfig | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (!required && (error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UsageError(
      `cannot read the config file ${path} (${(error as NodeJS.ErrnoException).code ?? error}).`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the config file ${path} is not valid JSON (${(error as Error).message}).`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`the config file ${path} must hold a JSON object like {"apiKey": "trove_sk_…"}.`);
  }
  const config: FileConfig = {};
  for (const key of FILE_KEYS) {
    const value = (parsed as Record<string, unknown>)[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") {
      throw new UsageError(`"${key}" in the config file ${path} must be a string.`);
    }
    if (value !== "") config[key] = value;
  }
  return config;
}

function optionalUrl(value: string | undefined, what: string): string | undefined {
  return value === undefined ? undefined : checkUrl(value, what);
}

function checkUrl(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`the ${what} "${value}" is not a URL (expected e.g. ${DEFAULT_BASE_URL}).`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`the ${what} "${value}" must start with http:// or https://.`);
  }
  return value.replace(/\/+$/, "");
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
