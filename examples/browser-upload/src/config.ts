/** Where the page uploads to, from `VITE_*` variables (see .env.example). Only public values. */
export interface TroveConfig {
  publicKey: string;
  baseUrl: string;
  /** Delivery host; thumbnails are built on it when the upload result has none. */
  assetsUrl: string | undefined;
}

const trimSlash = (value: string) => value.replace(/\/+$/, "");

export function readConfig(env: ImportMetaEnv = import.meta.env): TroveConfig {
  const publicKey = env.VITE_TROVE_PUBLIC_KEY?.trim();
  const baseUrl = env.VITE_TROVE_BASE_URL?.trim();
  const assetsUrl = env.VITE_TROVE_ASSETS_URL?.trim();
  const missing = [
    publicKey ? undefined : "VITE_TROVE_PUBLIC_KEY",
    baseUrl ? undefined : "VITE_TROVE_BASE_URL",
  ].filter(Boolean);
  if (!publicKey || !baseUrl) {
    throw new Error(`Set ${missing.join(" and ")} in .env.local (see .env.example), then restart.`);
  }
  return { publicKey, baseUrl: trimSlash(baseUrl), assetsUrl: assetsUrl ? trimSlash(assetsUrl) : undefined };
}
