/**
 * Profiles of the long suites (reliability, and the large upload of uploads.test.ts). Every
 * profile runs every test and asserts the same properties; they differ in how many requests,
 * uploads, bytes and seconds each test spends.
 *
 * - `short`: every `npm test`, sized so the whole suite stays within a newcomer's patience.
 * - `long` (`TROVE_LONG_TESTS=1`): .ci/run's long stage, the numbers RELIABILITY.md's everyday
 *   figures come from.
 * - `full` (`TROVE_RELIABILITY=full`): by hand, for the figures of a release.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { uploadRecord } from "./upload-record.js";

export type Profile = "short" | "long" | "full";

export const PROFILE: Profile =
  process.env.TROVE_RELIABILITY === "full" ? "full" : process.env.TROVE_LONG_TESTS === "1" ? "long" : "short";

/** The value of the current profile: `byProfile({ short: 500, long: 5_000, full: 10_000 })`. */
export function byProfile<T>(values: Record<Profile, T>): T {
  return values[PROFILE];
}

/** Where each suite writes its figures (JSON), for RELIABILITY.md. */
export function reportFigures(name: string, figures: unknown): void {
  const file = join(tmpdir(), `trove-reliability-${name}-${PROFILE}.json`);
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`[reliability] ${name} (${PROFILE}) → ${file}\n${JSON.stringify(figures, null, 2)}`);
}

export async function api(
  baseUrl: string,
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown; text: string }> {
  const headers: Record<string, string> = {};
  if (key) headers["x-api-key"] = key;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text };
}

/** Uploads a small file with the direct upload endpoint; returns the parsed response body. */
export async function uploadSmallFile(
  baseUrl: string,
  key: string,
  name: string,
  content: string | Uint8Array = "hello reliability",
): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.set("file_name", name);
  form.set("file", new Blob([content as BlobPart], { type: "text/plain" }), name);
  const response = await fetch(`${baseUrl}/api/v1/uploads`, {
    method: "POST",
    headers: { "x-api-key": key },
    body: form,
  });
  const body = uploadRecord(await response.json());
  if (!response.ok) throw new Error(`upload failed ${response.status}: ${JSON.stringify(body)}`);
  return body;
}
