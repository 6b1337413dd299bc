/**
 * Helpers for the upload, remote-upload, delivery-transform and webhook tests.
 *
 *   const { body, contentType } = await multipartBody([["file_name", "cat.png"], ["file", png, "cat.png", "image/png"]]);
 *   const res = await directUpload(t, { file_name: "cat.png", folder: "a/b" }, { content: png });
 *   const objects = await listObjects(t.storageDir);   // every stored object key (no .tmp)
 */
import { readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import {
  type UploadResponse,
  type UploadTokenResponse,
  uploadResponseSchema,
  uploadTokenResponseSchema,
  wrappedUploadResponseSchema,
} from "@trove/schema";
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { TestApp } from "./support/index.js";

/** A form part: a text field `[name, value]`, or a file `[name, bytes, filename?, type?]`. */
export type FormPart = [string, string] | [string, Uint8Array, string?, string?];

/** Encodes parts as multipart/form-data with undici's FormData (the platform's encoder), in order. */
export async function multipartBody(parts: FormPart[]): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const part of parts) {
    const [name, value, filename, type] = part;
    if (typeof value === "string") form.append(name, value);
    else form.append(name, new Blob([value], type ? { type } : {}), filename ?? "blob");
  }
  const response = new Response(form);
  return {
    body: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get("content-type") as string,
  };
}

export interface UploadFile {
  content: Uint8Array;
  filename?: string;
  type?: string;
}

/**
 * POST /api/v1/uploads with the private key (or `key`). Fields are sent before the file unless
 * `fileFirst`.
 */
export async function directUpload(
  t: TestApp,
  fields: Record<string, string>,
  file: UploadFile | null,
  options: { key?: string | null; fileFirst?: boolean; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  const fieldParts: FormPart[] = Object.entries(fields);
  const fileParts: FormPart[] = file
    ? [
        [
          "file",
          file.content,
          file.filename ?? fields.file_name ?? "upload",
          file.type ?? "application/octet-stream",
        ],
      ]
    : [];
  const { body, contentType } = await multipartBody(
    options.fileFirst ? [...fileParts, ...fieldParts] : [...fieldParts, ...fileParts],
  );
  const key = options.key === undefined ? t.keys.private : options.key;
  return t.app.inject({
    method: "POST",
    url: "/api/v1/uploads",
    headers: { "content-type": contentType, ...(key ? { "x-api-key": key } : {}), ...options.headers },
    payload: body,
  });
}

/** Parses a 200 upload response with the shared schema (fails the test on any other status). */
/**
 * The upload record of a 200, from the default wrapped body `{ success: true, data }` (whose
 * `file_size` and `workspace_no` must agree with the record), or from the flat body when the test
 * app runs with `uploadResponse: "flat"`.
 */
export function uploaded(res: LightMyRequestResponse): UploadResponse {
  if (res.statusCode !== 200) throw new Error(`expected 200, got ${res.statusCode}: ${res.body}`);
  const body = res.json() as Record<string, unknown>;
  if (!("success" in body)) return uploadResponseSchema.parse(body);
  const { file_size, workspace_no, ...record } = wrappedUploadResponseSchema.parse(body).data;
  if (file_size !== record.size) throw new Error(`file_size ${file_size} differs from size ${record.size}`);
  if (!record.url.includes(`/${workspace_no}/`) && !record.url.includes(`/${workspace_no}-`)) {
    throw new Error(`workspace_no ${workspace_no} is not the one in ${record.url}`);
  }
  return record;
}

/** POST /api/v1/uploads/remote with the private key. */
export function remoteUpload(t: TestApp, body: Record<string, unknown>, key: string | null = t.keys.private) {
  return t.app.inject({
    method: "POST",
    url: "/api/v1/uploads/remote",
    headers: key ? { "x-api-key": key } : {},
    payload: body,
  });
}

/** The delivery path of a URL (`/assets/<ws>/...`), for inject. */
export function pathOf(url: string): string {
  return new URL(url).pathname;
}

/** Every object key under the fs storage root (the driver's .tmp excluded). */
export async function listObjects(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      const key = relative(root, path).split(sep).join("/");
      if (key === ".tmp") continue;
      if (entry.isDirectory()) await walk(path);
      else out.push(key);
    }
  };
  await walk(root);
  return out.sort();
}

/** Runs `attempt` and checks that it left no object under the fs root and no file row behind. */
export async function leavesNothing(t: TestApp, attempt: () => Promise<void>): Promise<void> {
  const objects = await listObjects(t.storageDir);
  const files = await t.app.db.file.count();
  await attempt();
  expect(await listObjects(t.storageDir)).toEqual(objects);
  expect(await t.app.db.file.count()).toBe(files);
}

/** Every file (not directory) below `dir`, relative. */
export async function listFilesBelow(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string) => {
    for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else out.push(relative(dir, path).split(sep).join("/"));
    }
  };
  await walk(dir);
  return out.sort();
}

/** A minimal valid PDF (sniffed as application/pdf). */
export const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

/** Waits until `check` returns a value (not undefined), polling. */
export async function waitFor<T>(
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("waitFor: timed out");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Mints an upload token with `key` (POST /api/v1/uploads/tokens); throws unless it is 200. */
export async function mintUploadToken(
  t: TestApp,
  body: Record<string, unknown> = {},
  key = t.keys.private,
): Promise<UploadTokenResponse> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/uploads/tokens",
    headers: { "x-api-key": key },
    payload: body,
  });
  if (res.statusCode !== 200) throw new Error(`mint: ${res.statusCode} ${res.body}`);
  return uploadTokenResponseSchema.parse(res.json());
}
