/** Where the server is and which key to use, from the environment. */
export interface Settings {
  apiKey: string;
  baseUrl: string;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const apiKey = env.TROVE_API_KEY?.trim();
  if (!apiKey) {
    throw new Error(
      "Set TROVE_API_KEY to a private key (trove_sk_…): the server prints one when it starts for the first time.",
    );
  }
  if (!apiKey.startsWith("trove_sk_")) {
    throw new Error("TROVE_API_KEY must be a private key (trove_sk_…): public keys may only upload.");
  }
  // `npm start` in the Trove repository serves the API here.
  const baseUrl = env.TROVE_BASE_URL?.trim() || "http://127.0.0.1:3000";
  return { apiKey, baseUrl };
}
