/**
 * Security regression of signed delivery URLs, against a real `trove-server` process over
 * loopback: a signed URL must name the file it was issued for, not the path that file had. The
 * owner (private key) mints a week-long link to a private file, then deletes or renames the file;
 * the attacker (only the public key, as every web page has it) uploads other bytes, then the same
 * bytes, at the freed path, private and public. The old link must answer exactly what a missing
 * file answers, and the new file's own link must work. Figures go to e2e/SECURITY.md.
 */

import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradientPng } from "../support/png";
import { reportFigures } from "../support/reliability-profile";
import { uploadRecord } from "../support/upload-record.js";

const WEEK_SECONDS = 7 * 24 * 3600;
const FOLDER = "contracts";

interface Uploaded {
  file_no: string;
  path: string;
  url: string;
}

describe("signed URLs bound to their file (public key attacker)", () => {
  let server: ServerProcess;

  const call = (method: string, path: string, key: string, body?: unknown) =>
    fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  async function upload(key: string, name: string, bytes: Uint8Array, isPrivate: boolean): Promise<Uploaded> {
    const form = new FormData();
    form.set("file_name", name);
    form.set("folder", FOLDER);
    form.set("is_private", String(isPrivate));
    form.set("file", new Blob([bytes as BlobPart]), name);
    const response = await fetch(`${server.baseUrl}/api/v1/uploads`, {
      method: "POST",
      headers: { "x-api-key": key },
      body: form,
    });
    const record = uploadRecord(await response.json());
    expect(response.status, JSON.stringify(record)).toBe(200);
    return record as unknown as Uploaded;
  }

  async function mint(fileNo: string, transform?: string): Promise<string> {
    const response = await call("POST", `/api/v1/files/${fileNo}/signed-url`, server.keys.private, {
      expires_in: WEEK_SECONDS,
      ...(transform ? { transform } : {}),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: { url: string } }).data.url;
  }

  /** 404, byte for byte what a file that never existed in the same folder answers. */
  async function expectRefused(url: string): Promise<void> {
    const response = await fetch(url);
    expect(response.status, url).toBe(404);
    const missing = await fetch(url.replace(/\/[^/?]+\?.*$/, "/never-uploaded.png"));
    expect(missing.status).toBe(404);
    expect(await response.text(), url).toBe(await missing.text());
  }

  async function expectServes(url: string, bytes?: Uint8Array): Promise<void> {
    const response = await fetch(url);
    expect(response.status, url).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    if (bytes) expect(Buffer.compare(body, Buffer.from(bytes)), url).toBe(0);
  }

  beforeAll(async () => {
    server = await startServerProcess();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("a deleted file's week-long links never serve what the public key puts at its path", async () => {
    const original = gradientPng(64, 48);
    const file = await upload(server.keys.private, "a.png", original, true);
    const links = [file.url, await mint(file.file_no), await mint(file.file_no, "w_16")];
    for (const url of links) await expectServes(url);
    expect((await call("DELETE", `/api/v1/files/${file.file_no}`, server.keys.private)).status).toBe(200);

    const other = gradientPng(32, 32);
    const attempts: Array<{ bytes: Uint8Array; isPrivate: boolean }> = [
      { bytes: other, isPrivate: true },
      { bytes: original, isPrivate: true },
      { bytes: original, isPrivate: false },
    ];
    let refused = 0;
    for (const { bytes, isPrivate } of attempts) {
      const squatter = await upload(server.keys.public, "a.png", bytes, isPrivate);
      expect(squatter.path).toBe(file.path);
      for (const url of links) {
        await expectRefused(url);
        refused += 1;
      }
      // The new file is served through its own URL (a link its owner mints when private: the
      // public key is answered with plain URLs only).
      await expectServes(isPrivate ? await mint(squatter.file_no) : squatter.url, bytes);
      const removed = await call("DELETE", `/api/v1/files/${squatter.file_no}`, server.keys.private);
      expect(removed.status).toBe(200);
    }
    reportFigures("security-signed-urls-replaced", { attempts: attempts.length, oldLinksRefused: refused });
  });

  it("a renamed file's old link never serves what the public key puts at the old path", async () => {
    const original = gradientPng(40, 40);
    const file = await upload(server.keys.private, "b.png", original, true);
    const link = await mint(file.file_no);
    await expectServes(link, original);
    const renamed = await call("PATCH", `/api/v1/files/${file.file_no}/rename`, server.keys.private, {
      name: "b-final.png",
    });
    expect(renamed.status).toBe(200);
    await expectRefused(link);

    const squatter = await upload(server.keys.public, "b.png", gradientPng(20, 20), true);
    expect(squatter.path).toBe(file.path);
    await expectRefused(link);
    await expectServes(await mint(squatter.file_no));
    // The renamed file itself is reached through a link minted for its new path.
    await expectServes(await mint(file.file_no), original);
    reportFigures("security-signed-urls-renamed", { oldLinksRefused: 2 });
  });
});
