/**
 * The one rule for what kind of API key a string is, shared by the server (which refuses
 * development keys that break it), the SDK's private-key guard and the examples: the prefix.
 * Generated keys always carry it, so a key's kind is readable wherever the key is, without a
 * request: a page can be warned before a private key leaves it.
 */
export type KeyKind = "public" | "private";

export const KEY_PREFIXES = { public: "trove_pk_", private: "trove_sk_" } as const satisfies Record<
  KeyKind,
  string
>;

/** `"public"` for `trove_pk_…`, `"private"` for `trove_sk_…`, `null` for anything else (upload tokens included). */
export function keyKindOf(key: string): KeyKind | null {
  if (key.startsWith(KEY_PREFIXES.public)) return "public";
  if (key.startsWith(KEY_PREFIXES.private)) return "private";
  return null;
}
