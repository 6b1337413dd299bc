/**
 * Security (issue #14): an upload token's file count holds across instances. Two trove-server
 * processes share one PostgreSQL database; the same one-shot token is used on both at once, many
 * times over: exactly one file is created, every other upload is refused 403 TOKEN_EXHAUSTED, and
 * no refused upload leaves a file behind. Needs TROVE_TEST_DATABASE_URL.
 */
import { randomBytes } from "node:crypto";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradientPng } from "../support/png";
import { api } from "../support/reliability-profile";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { uploadRecord } from "../support/upload-record.js";

const adminUrl = process.env.TROVE_TEST_DATABASE_URL;
const ROUNDS = 5;
const PER_INSTANCE = 4;

describe.runIf(adminUrl)("a one-shot token used on two instances at once", () => {
  let database: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  const png = gradientPng(24, 24);

  beforeAll(async () => {
    database = createTestDatabase(adminUrl!, "upload_tokens");
    const env = { DATABASE_URL: database.url, TROVE_SECRET_KEY: randomBytes(32).toString("hex") };
    a = await startServerProcess(env);
    b = await startServerProcess(env, { keys: a.keys });
  });

  afterAll(async () => {
    await Promise.allSettled([a?.stop(), b?.stop()]);
    database?.drop();
  });

  async function upload(instance: ServerProcess, token: string, name: string) {
    const form = new FormData();
    form.set("file_name", name);
    form.set("file", new Blob([png as BlobPart], { type: "image/png" }), name);
    const response = await fetch(`${instance.baseUrl}/api/v1/uploads`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: response.status, body: uploadRecord(await response.json()) };
  }

  it("creates exactly one file per token, whichever instance wins", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const minted = await api(a.baseUrl, a.keys.private, "POST", "/api/v1/uploads/tokens", {
        folder: `round-${round}`,
      });
      expect(minted.status, minted.text).toBe(200);
      const { token } = minted.body as { token: string };
      const attempts = [a, b].flatMap((instance, i) =>
        Array.from({ length: PER_INSTANCE }, (_, n) => upload(instance, token, `f-${i}-${n}.png`)),
      );
      const results = await Promise.all(attempts);
      const created = results.filter((r) => r.status === 200);
      const refused = results.filter((r) => r.status !== 200);
      expect(created).toHaveLength(1);
      for (const r of refused) {
        expect(r.status).toBe(403);
        expect(r.body).toMatchObject({ success: false, errorCode: "TOKEN_EXHAUSTED" });
      }
      // The other instance sees the one file of this round in the shared database.
      const listed = await api(
        b.baseUrl,
        b.keys.private,
        "GET",
        `/api/v1/files?path=round-${round}&limit=100`,
      );
      expect(listed.status, listed.text).toBe(200);
      expect((listed.body as { files: unknown[] }).files).toHaveLength(1);
    }
  });
});
