import { keyKindOf } from "@trove/sdk/upload";

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
  // The same rule the server and the SDK's guard use; a private key is refused by the SDK too,
  // but this says what to paste instead.
  if (keyKindOf(publicKey) !== "public") {
    throw new Error(
      "VITE_TROVE_PUBLIC_KEY must be a public key (trove_pk_…): only public values belong in a page.",
    );
  }
  return { publicKey, baseUrl: trimSlash(baseUrl), assetsUrl: assetsUrl ? trimSlash(assetsUrl) : undefined };
}
