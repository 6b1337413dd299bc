/**
 * What the reliability suites check after a fault: every file row of a workspace (through the
 * list endpoint, all pages) and distinct upload contents to send.
 */
import { api } from "./reliability-profile";

export interface ListedFile {
  file_no: string;
  url: string;
  name: string;
}

/** Every file of the key's workspace, all pages of `GET /api/v1/files`. */
export async function listAllFiles(baseUrl: string, key: string): Promise<ListedFile[]> {
  const rows: ListedFile[] = [];
  for (let page = 1; ; page += 1) {
    const list = await api(baseUrl, key, "GET", `/api/v1/files?page=${page}&limit=100`);
    if (list.status !== 200) throw new Error(`listing files failed: ${list.status} ${list.text}`);
    const body = list.body as { files: ListedFile[] };
    rows.push(...body.files);
    if (body.files.length < 100) return rows;
  }
}

/** `size` bytes that differ for every `index` (so no upload is a duplicate of another). */
export function patternBytes(index: number, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 4096) bytes[i] = (index * 31 + i / 4096) & 0xff;
  bytes[0] = index & 0xff;
  bytes[1] = (index >> 8) & 0xff;
  return bytes;
}

/**
 * Fetches every row's bytes (its `url`) and its id (the details endpoint): the rows whose object is
 * missing, and the file ids, to compare stored objects against.
 */
export async function checkRowObjects(
  baseUrl: string,
  key: string,
  rows: ListedFile[],
): Promise<{ missingObjects: string[]; fileIds: Set<string> }> {
  const missingObjects: string[] = [];
  const fileIds = new Set<string>();
  for (const row of rows) {
    const object = await fetch(row.url);
    await object.arrayBuffer();
    if (object.status !== 200) missingObjects.push(`${row.file_no} ${row.url} → ${object.status}`);
    const details = await api(baseUrl, key, "GET", `/api/v1/files/${row.file_no}`);
    fileIds.add((details.body as { data: { id: string } }).data.id);
  }
  return { missingObjects, fileIds };
}
