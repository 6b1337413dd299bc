/** Where the page uploads to, from `VITE_*` variables (see .env.example). Only public values. */
export interface TroveConfig {
  publicKey: string;
  baseUrl: string;
  assetsUrl: string;
}

export function readConfig(env: ImportMetaEnv = import.meta.env): TroveConfig {
  const publicKey = env.VITE_TROVE_PUBLIC_KEY?.trim();
  const baseUrl = env.VITE_TROVE_BASE_URL?.trim().replace(/\/+$/, "");
  if (!publicKey || !baseUrl) {
    throw new Error(
      "Set VITE_TROVE_PUBLIC_KEY and VITE_TROVE_BASE_URL in .env.local (see .env.example), then restart.",
    );
  }
  if (!publicKey.startsWith("trove_pk_")) {
    throw new Error(
      "VITE_TROVE_PUBLIC_KEY must be a public key (trove_pk_…): only public values belong in a page.",
    );
  }
  const assetsUrl = env.VITE_TROVE_ASSETS_URL?.trim().replace(/\/+$/, "") || `${baseUrl}/assets`;
  return { publicKey, baseUrl, assetsUrl };
}
