/** The URIs an HLS playlist names (its URI lines and URI="" attributes), as a player reads them. */
export function playlistUris(playlist: string): string[] {
  const uris: string[] = [];
  for (const line of playlist.split("\n").map((l) => l.trim())) {
    if (line === "") continue;
    if (!line.startsWith("#")) uris.push(line);
    for (const match of line.matchAll(/URI="([^"]+)"/g)) uris.push(match[1] as string);
  }
  return uris;
}
