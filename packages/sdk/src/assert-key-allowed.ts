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
      "A private key (trove_sk_) in a browser is readable by anyone who loads the page: use a public key (trove_pk_), or allowPrivateKeyInBrowser: true for pages only trusted users open",
      { code: "PRIVATE_KEY_IN_BROWSER" },
    );
  }
}
