import { keyKindOf } from "@trove/schema/zod-free";
import { TroveError } from "../errors.js";

interface RuntimeGlobals {
  document?: unknown;
  process?: { versions?: { node?: unknown } };
}

/**
 * Where users may read the code: a page (anything with a `document`, even with Node's globals as
 * in Electron or jsdom), and every runtime that does not say it is a server. Only a string in
 * `process.versions.node` says so: Node, Bun and Deno 2 set it; Web and Service Workers, Deno 1
 * and edge runtimes without Node compatibility do not, so they are browser-like. A string, not
 * just a value: a page's `<form id="process">` can put elements on those names (DOM clobbering),
 * never a string.
 */
export function isBrowserLike(): boolean {
  const { document, process } = globalThis as RuntimeGlobals;
  return document !== undefined || typeof process?.versions?.node !== "string";
}

/**
 * A private key can delete every file and read source credentials; shipped to a browser or a
 * worker it is readable by anyone who opens the page. Those get upload tokens or public keys
 * (`trove_pk_`), which may only upload, unless the caller opts in knowingly. The kind is read by
 * `keyKindOf`, the rule the server enforces on every key it issues or seeds, so the prefix is
 * reliable.
 */
export function assertKeyAllowed(apiKey: string, allowPrivateKeyInBrowser: boolean | undefined): void {
  if (keyKindOf(apiKey) === "private" && isBrowserLike() && !allowPrivateKeyInBrowser) {
    throw new TroveError(
      "A private key (trove_sk_) in a page is readable by anyone: use upload tokens or a public key, or allowPrivateKeyInBrowser: true for trusted users' pages",
      { code: "PRIVATE_KEY_IN_BROWSER" },
    );
  }
}
