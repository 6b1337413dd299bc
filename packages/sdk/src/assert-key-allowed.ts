import { TroveError } from "./errors.js";

export const PRIVATE_KEY_PREFIX = "trove_sk_";

export function isBrowser(): boolean {
  return typeof window !== "undefined" && typeof document !== "undefined";
}

/**
 * A private key can delete every file and read source credentials; shipped to a browser it is
 * readable by anyone who opens the page. Browsers get public keys (`trove_pk_`), which may only
 * upload, unless the caller opts in knowingly.
 */
export function assertKeyAllowed(apiKey: string, allowPrivateKeyInBrowser: boolean | undefined): void {
  if (apiKey.startsWith(PRIVATE_KEY_PREFIX) && isBrowser() && !allowPrivateKeyInBrowser) {
    throw new TroveError(
      "A private API key (trove_sk_) must not be used in a browser: anyone who loads the page can read it. Use a public key (trove_pk_) for uploads, or pass allowPrivateKeyInBrowser: true if this page is only for trusted users.",
      { code: "PRIVATE_KEY_IN_BROWSER" },
    );
  }
}
