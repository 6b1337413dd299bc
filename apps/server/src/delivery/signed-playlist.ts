/**
 * A signed streaming manifest authorizes its own package (issue #33): the signature covers the
 * file and the ladder step, not the file name after it, so the same `exp`/`sig` is good for the
 * master, the DASH manifest, the media playlists and every segment of that package, and for
 * nothing else (another ladder, a transform, the original). Players resolve a manifest's relative
 * URIs without its query string, so a signed manifest is served with the query appended to each
 * URI it names; it expires with the URL it came from.
 */

/** The query of a signed request, as it is appended to the URIs of the manifest it fetched. */
export function signatureQuery(query: { exp?: unknown; sig?: unknown }): string {
  return `exp=${encodeURIComponent(String(query.exp))}&sig=${encodeURIComponent(String(query.sig))}`;
}

/** An HLS playlist with `query` on every URI: the URI lines and the `URI="…"` attributes. */
export function signHlsPlaylist(playlist: string, query: string): string {
  return playlist
    .split("\n")
    .map((line) => {
      const trimmed = line.trim();
      if (trimmed === "") return line;
      if (!trimmed.startsWith("#")) return `${trimmed}?${query}`;
      return line.replace(/URI="([^"?]*)"/g, (_, uri: string) => `URI="${uri}?${query}"`);
    })
    .join("\n");
}

/** A DASH manifest with `query` on its segment templates' `initialization` and `media` URIs. */
export function signDashManifest(manifest: string, query: string): string {
  const escaped = query.replaceAll("&", "&amp;");
  return manifest.replace(
    /\b(initialization|media)="([^"?]*)"/g,
    (_, attribute: string, uri: string) => `${attribute}="${uri}?${escaped}"`,
  );
}
