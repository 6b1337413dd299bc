/** The files one browser session uploaded, fetched from Trove with the private key (server side only). */
import type { TroveClient } from "@trove/sdk";
import { sessionFolder } from "./upload-policy.js";

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
  sessionId: string,
  page = 1,
): Promise<{ files: ListedFile[]; hasNext: boolean }> {
  const { files, meta } = await trove.files.list({
    page,
    limit: 50,
    sort: "created_at_desc",
    // Only what this session's tokens could store: they are bound to exactly this folder.
    path: sessionFolder(sessionId),
  });
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
