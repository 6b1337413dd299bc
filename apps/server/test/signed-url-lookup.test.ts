// Minting a signed URL (POST /api/v1/files/{fileNo}/signed-url) looks the file up by its number
// within the caller's workspace on the direct path (src/files/find-file-to-sign.ts): a file of
// another workspace, an expired one, an unknown or malformed number are the same 404 as the
// details endpoint's, and a minted URL serves the file. Runs on PostgreSQL too when
// TROVE_TEST_DATABASE_URL is set (createTestApp picks the database).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./support/index.js";
import { seedFile } from "./support/seed.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function mint(fileNo: string, key = t.keys.private, payload: Record<string, unknown> = {}) {
  return t.app.inject({
    method: "POST",
    url: `/api/v1/files/${fileNo}/signed-url`,
    headers: { "x-api-key": key },
    payload,
  });
}

function details(fileNo: string, key = t.keys.private) {
  return t.app.inject({ method: "GET", url: `/api/v1/files/${fileNo}`, headers: { "x-api-key": key } });
}

const MISSING = { error: "File not found" };

/** Path and query of a delivery URL, for inject. */
function local(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

describe("minting a signed URL", () => {
  it("signs the caller's file, public or private, and the URL serves its bytes", async () => {
    for (const isPrivate of [true, false]) {
      const content = Buffer.from(`bytes of a ${isPrivate ? "private" : "public"} file`);
      const file = await seedFile(t.app, t.workspace, {
        name: `note-${isPrivate}.txt`,
        folderPath: "docs/2026",
        content,
        isPrivate,
      });
      const res = await mint(String(file.fileNo), t.keys.private, { expires_in: 600 });
      expect(res.statusCode, res.body).toBe(200);
      const { url, expires_at } = res.json().data as { url: string; expires_at: string };
      expect(url.split("?")[0]).toBe(file.url.split("?")[0]);
      expect(url).toMatch(/\?exp=\d+&sig=[0-9a-f]{8}\.[A-Za-z0-9_-]{43}$/);
      expect(Number(new URL(url).searchParams.get("exp"))).toBe(Math.floor(Date.parse(expires_at) / 1000));
      const served = await t.app.inject({ method: "GET", url: local(url) });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(content)).toBe(true);
    }
  });

  it("another workspace's file is not found, exactly like the details of it", async () => {
    const theirs = await seedFile(t.app, t.workspace2, { name: "theirs.txt", isPrivate: true });
    const fileNo = String(theirs.fileNo);
    const res = await mint(fileNo);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(MISSING);
    const other = await details(fileNo);
    expect(other.statusCode).toBe(404);
    expect(res.body).toBe(other.body);
    // Its own workspace's key mints it.
    expect((await mint(fileNo, t.keys.private2)).statusCode).toBe(200);
  });

  it("an expired temporary file is not found, whether or not the sweep has deleted it", async () => {
    const file = await seedFile(t.app, t.workspace, { name: "gone.txt", isPrivate: true });
    await t.app.db.file.update({ where: { id: file.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await mint(String(file.fileNo));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(MISSING);

    await t.app.db.file.update({
      where: { id: file.id },
      data: { expiresAt: new Date(Date.now() + 3_600_000) },
    });
    expect((await mint(String(file.fileNo))).statusCode).toBe(200);
  });

  it("a deleted file is not found", async () => {
    const file = await seedFile(t.app, t.workspace, { name: "deleted.txt", isPrivate: true });
    const fileNo = String(file.fileNo);
    expect((await mint(fileNo)).statusCode).toBe(200);
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/files/${fileNo}`,
      headers: { "x-api-key": t.keys.private },
    });
    expect(removed.statusCode).toBe(200);
    const res = await mint(fileNo);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(MISSING);
  });

  it("an unknown or malformed number is the files group's 404, never a 400 or 5xx", async () => {
    for (const fileNo of [
      "999999999",
      "9223372036854775807",
      "9223372036854775808",
      "0",
      "01",
      "abc",
      "1.5",
    ]) {
      const res = await mint(fileNo);
      expect(res.statusCode, fileNo).toBe(404);
      expect(res.json(), fileNo).toEqual(MISSING);
    }
  });
});
