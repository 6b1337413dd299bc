/**
 * Helpers for the multipart tests (test/multipart*.test.ts).
 *
 *   const session = await start(t, { file_name: "a.bin", size: data.length });
 *   await putPart(t, session.parts[0], data.subarray(0, session.part_size));   // through inject
 *   await fetchPut(origin, session.parts[1], bytes);                           // real HTTP
 *   const done = await complete(t, session.session_id);
 */
import { createHash } from "node:crypto";
import {
  type MultipartCompleteResult,
  type MultipartSession,
  multipartCompleteResponseSchema,
  multipartSessionSchema,
} from "@trove/schema";
import type { LightMyRequestResponse } from "fastify";
import type { TestApp } from "./support/index.js";

export const MiB = 1024 * 1024;

export function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Deterministic bytes (cheaper than randomBytes for large sizes, and not compressible into sameness). */
export function testBytes(size: number, seed = 1): Buffer {
  const out = Buffer.allocUnsafe(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i + 4 <= size; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.writeUInt32LE(x >>> 0, i);
  }
  for (let i = size - (size % 4); i < size; i++) out[i] = i & 0xff;
  return out;
}

export function startRaw(
  t: TestApp,
  body: unknown,
  key: string | null = t.keys.private,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: "POST",
    url: "/api/v1/multipart/start",
    headers: key ? { "x-api-key": key } : {},
    payload: body as Record<string, unknown>,
  });
}

export async function start(
  t: TestApp,
  body: Record<string, unknown>,
  key: string = t.keys.private,
): Promise<MultipartSession> {
  const res = await startRaw(t, { format: "application/octet-stream", ...body }, key);
  if (res.statusCode !== 200) throw new Error(`start: ${res.statusCode} ${res.body}`);
  return multipartSessionSchema.parse(res.json());
}

/** Path and query of a part URL (for inject). */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

export function putPart(
  t: TestApp,
  url: string,
  body: Uint8Array,
  headers: Record<string, string> = { "content-type": "application/octet-stream" },
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: "PUT", url: pathOf(url), headers, payload: Buffer.from(body) });
}

/** PUT over real HTTP to `origin` (the listening app), keeping the URL's path and query. */
export function fetchPut(
  origin: string,
  url: string,
  body: NonNullable<RequestInit["body"]>,
  headers: Record<string, string> = { "content-type": "application/octet-stream" },
): Promise<Response> {
  return fetch(`${origin}${pathOf(url)}`, {
    method: "PUT",
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

export function completeRaw(
  t: TestApp,
  sessionId: unknown,
  key: string | null = t.keys.private,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: "POST",
    url: "/api/v1/multipart/complete",
    headers: key ? { "x-api-key": key } : {},
    payload: { session_id: sessionId },
  });
}

export async function complete(
  t: TestApp,
  sessionId: string,
  key: string = t.keys.private,
): Promise<MultipartCompleteResult> {
  const res = await completeRaw(t, sessionId, key);
  if (res.statusCode !== 200) throw new Error(`complete: ${res.statusCode} ${res.body}`);
  return multipartCompleteResponseSchema.parse(res.json()).data;
}

/** DELETE /api/v1/multipart/:sessionId (Trove's endpoint 22: abandon the session). */
export function abandonRaw(
  t: TestApp,
  sessionId: string,
  key: string | null = t.keys.private,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: "DELETE",
    url: `/api/v1/multipart/${sessionId}`,
    headers: key ? { "x-api-key": key } : {},
  });
}

/** Uploads every part of `data` through inject, in the given order of part indexes. */
export async function uploadAll(
  t: TestApp,
  session: MultipartSession,
  data: Uint8Array,
  order: number[] = session.parts.map((_, i) => i),
): Promise<void> {
  for (const i of order) {
    const chunk = data.subarray(i * session.part_size, (i + 1) * session.part_size);
    const res = await putPart(t, session.parts[i] as string, chunk);
    if (res.statusCode !== 200) throw new Error(`part ${i + 1}: ${res.statusCode} ${res.body}`);
  }
}

/** GET the file through the delivery host; the body's SHA-256. */
export async function deliveredSha256(t: TestApp, url: string): Promise<string> {
  const res = await t.app.inject({ method: "GET", url: pathOf(url) });
  if (res.statusCode !== 200) throw new Error(`delivery: ${res.statusCode} ${res.body.slice(0, 200)}`);
  return sha256(res.rawPayload);
}

/** The auth context of the credential that started a session (for calling the service directly). */
export async function ownerOf(t: TestApp, sessionId: string) {
  const session = await t.app.db.multipartSession.findUniqueOrThrow({ where: { id: sessionId } });
  return {
    workspaceId: session.workspaceId,
    workspaceNo: t.workspace.workspaceNo,
    keyId: session.createdBy as string,
    ...(session.uploadTokenId ? { tokenId: session.uploadTokenId } : {}),
  };
}
