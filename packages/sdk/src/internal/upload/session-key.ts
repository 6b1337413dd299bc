/** Every key this SDK writes to a SessionStore starts with it, so a shared store can be listed. */
export const SESSION_KEY_PREFIX = "trove:upload:";

/**
 * The store key of an upload: its content identity plus everything that shapes the session
 * (server, name, folder, options), so the same file sent to another folder starts afresh.
 */
export function sessionKey(parts: readonly unknown[]): string {
  const text = JSON.stringify(parts);
  // Two 32-bit multiplicative hashes (cyrb53's rounds without its final mixing): 64 bits, far
  // more than a store of one user's uploads needs, in the fewest bytes of browser bundle.
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ char, 2654435761);
    h2 = Math.imul(h2 ^ char, 1597334677);
  }
  return `${SESSION_KEY_PREFIX}${(h1 >>> 0).toString(36)}${(h2 >>> 0).toString(36)}`;
}
