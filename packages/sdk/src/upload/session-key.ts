/**
 * The store key of an upload: its content identity plus everything that shapes the session
 * (server, name, folder, options), so the same file sent to another folder starts afresh.
 */
export function sessionKey(parts: readonly unknown[]): string {
  const text = JSON.stringify(parts);
  return `trove:upload:${hash53(text, 1).toString(36)}${hash53(text, 2).toString(36)}`;
}

/** cyrb53: a fast 53-bit string hash; two seeds give ~106 bits, plenty for a store key. */
function hash53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ char, 2654435761);
    h2 = Math.imul(h2 ^ char, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
