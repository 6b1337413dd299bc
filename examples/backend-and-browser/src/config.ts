/**
 * The backend's settings, from the environment. Only one key, and it stays in this process:
 *
 *   TROVE_PRIVATE_KEY  trove_sk_…  lists files, and mints a short-lived upload token per upload
 *
 * The page holds no key at all: it asks this backend for an upload token before each upload.
 * A key of the wrong kind is refused at start, by the rule the server and the SDK share
 * (`keyKindOf`: the `trove_sk_` prefix, which the server requires of every private key).
 */
import { keyKindOf } from "@trove/sdk";

export interface BackendConfig {
  /** Trove API base URL (what the root `npm start` prints as "listening"). */
  baseUrl: string;
  /** Trove delivery host (thumbnails and file URLs). */
  assetsUrl: string;
  privateKey: string;
  host: string;
  port: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

const trimSlash = (value: string) => value.replace(/\/+$/, "");

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): BackendConfig {
  const privateKey = env.TROVE_PRIVATE_KEY?.trim() ?? "";
  const problems: string[] = [];
  if (keyKindOf(privateKey) !== "private")
    problems.push(
      "TROVE_PRIVATE_KEY must be a private key (trove_sk_…, printed by the server's first start)",
    );
  const port = Number(env.PORT ?? 3100);
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push("PORT must be a port number");
  if (problems.length > 0) throw new ConfigError(problems.join("; "));
  const baseUrl = trimSlash(env.TROVE_BASE_URL?.trim() || "http://127.0.0.1:3000");
  return {
    baseUrl,
    assetsUrl: trimSlash(env.TROVE_ASSETS_URL?.trim() || `${baseUrl}/assets`),
    privateKey,
    host: env.HOST?.trim() || "127.0.0.1",
    port,
  };
}
