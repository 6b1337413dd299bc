/**
 * The backend's settings, from the environment. The two keys have different jobs:
 *
 *   TROVE_PRIVATE_KEY  trove_sk_…  stays in this process: lists (and could delete) files
 *   TROVE_PUBLIC_KEY   trove_pk_…  goes into the page: it can only upload
 *
 * A key of the wrong kind is refused at start, so a private key can never end up in the page.
 */
export interface BackendConfig {
  /** Trove API base URL (what the root `npm start` prints as "listening"). */
  baseUrl: string;
  /** Trove delivery host (thumbnails and file URLs). */
  assetsUrl: string;
  publicKey: string;
  privateKey: string;
  host: string;
  port: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

const trimSlash = (value: string) => value.replace(/\/+$/, "");

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): BackendConfig {
  const publicKey = env.TROVE_PUBLIC_KEY?.trim() ?? "";
  const privateKey = env.TROVE_PRIVATE_KEY?.trim() ?? "";
  const problems: string[] = [];
  if (!publicKey.startsWith("trove_pk_")) problems.push("TROVE_PUBLIC_KEY must be a public key (trove_pk_…)");
  if (!privateKey.startsWith("trove_sk_"))
    problems.push("TROVE_PRIVATE_KEY must be a private key (trove_sk_…)");
  const port = Number(env.PORT ?? 3100);
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push("PORT must be a port number");
  if (problems.length > 0) throw new ConfigError(problems.join("; "));
  const baseUrl = trimSlash(env.TROVE_BASE_URL?.trim() || "http://127.0.0.1:3000");
  return {
    baseUrl,
    assetsUrl: trimSlash(env.TROVE_ASSETS_URL?.trim() || `${baseUrl}/assets`),
    publicKey,
    privateKey,
    host: env.HOST?.trim() || "127.0.0.1",
    port,
  };
}
