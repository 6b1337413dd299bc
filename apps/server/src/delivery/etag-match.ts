/**
 * `If-None-Match` against an entity tag, by the weak comparison RFC 9110 prescribes for it
 * (`W/` prefixes ignored), `*` matching any entity.
 */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === bare);
}
