import { KEY_PREFIXES, type KeyKind, keyKindOf } from "@trove/schema";
import { z } from "zod";

/**
 * A TROVE_DEV_* key variable: optional, and when set it must carry its kind's prefix. Every key
 * the server generates does; a development key without it would be accepted by the API while the
 * SDK's private-key guard and the examples, which read the kind from the prefix (`keyKindOf`),
 * would take it for something else: a private key pasted into a page would go unwarned.
 */
export function devKeyEnv(kind: KeyKind) {
  return z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === "" ? undefined : value.trim()))
    .refine(
      (value) => value === undefined || keyKindOf(value) === kind,
      `must be a ${kind} key starting with ${KEY_PREFIXES[kind]}: clients tell key kinds by this prefix (a ${kind} key without it would be taken for another kind)`,
    );
}
