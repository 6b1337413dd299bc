// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the expressions quote source code as written
/**
 * The `RegExp(...)` constructions whose pattern is computed, each read by a person. The check
 * fails on a computed pattern missing here, or on an entry whose expression changed, so nobody
 * adds one (say, a pattern built from request input) without this review. `example` is the
 * pattern the expression produces today (or for a typical input), and it goes through recheck too.
 */
export interface ReviewedDynamicRegex {
  file: string;
  /** The pattern argument exactly as written in the source. */
  expression: string;
  /** Why the computed pattern is linear for every value it can take. */
  reason: string;
  example: { source: string; flags: string };
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

export const REVIEWED_DYNAMIC_REGEXES: readonly ReviewedDynamicRegex[] = [
  {
    file: "apps/server/src/logging/log-redaction.ts",
    expression: '`([?&;](?:${SECRET_PARAMETERS.join("|")})=)[^&;#\\\\s"\'<>]*`',
    reason: "an alternation of constant parameter names ending in `=`, then one negated class",
    example: {
      source:
        "([?&;](?:signature|sig|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|token|access_token|upload_token|key|api_key|apikey|api-key|x-api-key|secret|password)=)[^&;#\\s\"'<>]*",
      flags: "gi",
    },
  },
  {
    file: "apps/server/src/media/file-name-extension.ts",
    expression: "`^[a-z0-9]{1,${MAX_EXTENSION_LENGTH}}$`",
    reason: "a constant bound from the same module; one anchored character class",
    example: { source: "^[a-z0-9]{1,16}$", flags: "" },
  },
  {
    file: "packages/schema/src/transform/named-transform.ts",
    expression: "`^[a-z0-9_-]{1,${MAX_NAMED_TRANSFORM_LENGTH}}$`",
    reason: "a constant bound from the same module; one anchored character class",
    example: { source: "^[a-z0-9_-]{1,64}$", flags: "" },
  },
  {
    file: "apps/server/src/storage/sweep-orphan-objects.ts",
    expression: "`^${UUID}/${UUID}/[^/]+$`",
    reason: "built from a constant UUID pattern; runs on storage keys, not on request input",
    example: { source: `^${UUID}/${UUID}/[^/]+$`, flags: "" },
  },
  {
    file: "apps/server/src/uploads/stored-name.ts",
    expression: "`^${escapeRegExp(storedName)}-(\\\\d{1,9})$`",
    reason: "the name is escaped, so it matches as literal text; the only quantifier is bounded",
    example: { source: "^holiday \\(1\\) \\[final\\]-(\\d{1,9})$", flags: "" },
  },
  {
    file: "apps/server/src/uploads/stored-name.ts",
    expression: "`^${escapeRegExp(stem)}-(\\\\d{1,9})\\\\.${escapeRegExp(extension)}$`",
    reason: "stem and extension are escaped literal text; the only quantifier is bounded",
    example: { source: "^cat\\.\\*-(\\d{1,9})\\.jpg$", flags: "" },
  },
];
