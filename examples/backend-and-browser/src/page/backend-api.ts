/**
 * The page's two calls to its own backend, each failing with one sentence a person can act on:
 * the backend's own words when it answered (it says when Trove refused it), or that it did not
 * answer at all.
 */
import type { ListedFile } from "../list-files.js";

async function callBackend(path: string, init?: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new Error(
      `This page's backend did not answer ${path}: is \`npm start\` in examples/backend-and-browser still running?`,
    );
  }
  if (response.ok) return response;
  const body = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
  const reason = typeof body?.error === "string" ? body.error : `${path} answered ${response.status}`;
  throw new Error(reason);
}

/** A one-file upload token for the next upload; the SDK calls this once per upload. */
export async function uploadToken(): Promise<string> {
  return (await callBackend("/api/upload-token", { method: "POST" })).text();
}

/** The files this browser session uploaded, newest first. */
export async function sessionFiles(): Promise<ListedFile[]> {
  const { files } = (await (await callBackend("/api/files")).json()) as { files: ListedFile[] };
  return files;
}
