import { keyKindOf } from "@trove/sdk/upload";

/** Where the page uploads to, from `VITE_*` variables (see .env.example). Only public values. */
export interface TusConfig {
  /** Trove's tus 1.0 endpoint: `{VITE_TROVE_BASE_URL}/api/v1/tus`. */
  endpoint: string;
  /** Sent as `Authorization: Bearer …` on every tus request (creation, HEAD, PATCH, DELETE). */
  headers: Record<string, string>;
  /** Goes into each upload's `Upload-Metadata` as `folder`; undefined: the workspace's root. */
  folder: string | undefined;
}

type Variable = "VITE_TROVE_PUBLIC_KEY" | "VITE_TROVE_BASE_URL";

function required(env: ImportMetaEnv, name: Variable): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`Set ${name} in .env.local (see .env.example), then restart the page.`);
  return value;
}

export function readConfig(env: ImportMetaEnv = import.meta.env): TusConfig {
  const publicKey = required(env, "VITE_TROVE_PUBLIC_KEY");
  // The rule the server and the SDK use: this says what to paste instead of a private key.
  if (keyKindOf(publicKey) !== "public") {
    throw new Error(
      "VITE_TROVE_PUBLIC_KEY must be a public key (trove_pk_…): a page shows its keys to everyone.",
    );
  }
  return {
    endpoint: `${required(env, "VITE_TROVE_BASE_URL").replace(/\/+$/, "")}/api/v1/tus`,
    headers: { Authorization: `Bearer ${publicKey}` },
    folder: env.VITE_TROVE_FOLDER?.trim() || undefined,
  };
}
