/** The file list the page shows, fetched from Trove with the private key (server side only). */
import type { TroveClient } from "@trove/sdk";

/** What the page gets: enough to show a grid. No key, no internal ids. */
export interface ListedFile {
  file_no: string;
  name: string;
  url: string;
  thumbnail: string | null;
  size: number;
  format: string;
  created_at: string;
}

export async function listFiles(
  trove: TroveClient,
  page = 1,
): Promise<{ files: ListedFile[]; hasNext: boolean }> {
  const { files, meta } = await trove.files.list({ page, limit: 50, sort: "created_at_desc" });
  return {
    files: files.map((file) => ({
      file_no: file.file_no,
      name: file.name,
      url: file.url,
      thumbnail: file.thumbnail ?? null,
      size: file.file_size,
      format: file.format,
      created_at: file.created_at,
    })),
    hasNext: meta.hasNext,
  };
}
