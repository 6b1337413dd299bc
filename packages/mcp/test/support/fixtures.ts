import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";

/** A 1×1 PNG: the delivery host transforms it like any image. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** The tools a private key gets over HTTP (no path upload there); stdio with roots adds upload_file. */
export const PRIVATE_HTTP_TOOLS = [
  "create_folder",
  "delete_file",
  "delivery_url",
  "get_file",
  "list_files",
  "list_folders",
  "list_sources",
  "rename_file",
  "search_files",
  "signed_url",
  "upload_from_url",
];
export const UPLOAD_ONLY_HTTP_TOOLS = ["delivery_url", "upload_from_url"];

/** A temporary directory for the file's tests, removed after them. */
export function useTempDir(prefix: string): { path: string } {
  const dir = { path: "" };
  beforeAll(async () => {
    dir.path = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await rm(dir.path, { recursive: true, force: true });
  });
  return dir;
}

export async function writePng(path: string): Promise<string> {
  await writeFile(path, PNG);
  return path;
}
