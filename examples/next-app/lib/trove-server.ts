// The private key's side of the app: read only by server code (the token route and the gallery's
// server component). Neither variable is NEXT_PUBLIC_, so Next never puts them in a page.
import { createClient } from "@trove/sdk";

/** Where this app's uploads go, and where the gallery lists from. */
export const UPLOAD_FOLDER = "next-app/uploads";

export function troveSettings() {
  const privateKey = process.env.TROVE_SECRET_KEY;
  const baseUrl = process.env.TROVE_BASE_URL ?? "http://127.0.0.1:3000";
  if (!privateKey) throw new Error("Set TROVE_SECRET_KEY to a private key (trove_sk_…): see README.md");
  return { privateKey, baseUrl };
}

export function troveServerClient() {
  const { privateKey, baseUrl } = troveSettings();
  return createClient({ apiKey: privateKey, baseUrl });
}
