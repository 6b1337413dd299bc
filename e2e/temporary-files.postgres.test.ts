/**
 * Temporary files (issue #34 part 4) on two trove-server processes sharing one PostgreSQL database
 * and one storage folder, both running workers and sweeping every 200 ms:
 *
 * - uploads with `expires_in` (and through a token whose policy sets `file_expires_in`) carry
 *   `expires_at`;
 * - once the deadline has passed (moved into the past in the database, not waited for), delivery
 *   and the files API answer 404 on both instances, the list leaves the files out;
 * - the sweeps of both instances delete each file once: its row and stored objects are gone, and
 *   a loopback webhook receiver gets exactly one `file.deleted` per file, with `reason: "expired"`.
 *
 * Needs TROVE_TEST_DATABASE_URL (an admin URL of a PostgreSQL server) and psql on PATH.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { UploadResponse } from "@trove/schema";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradientPng } from "./support/png";
import { api } from "./support/reliability-profile";
import { storedObjects } from "./support/stored-objects";
import { createTestDatabase, type TestDatabase } from "./support/test-database";
import { uploadRecord } from "./support/upload-record.js";

const adminUrl = process.env.TROVE_TEST_DATABASE_URL;
const ADMIN_TOKEN = randomBytes(32).toString("hex");
const FILES = 4;

interface Event {
  type: string;
  data: { file_no?: string; reason?: string };
}

async function waitFor<T>(check: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(adminUrl)("temporary files on two instances sharing PostgreSQL", () => {
  let database: TestDatabase;
  let sharedDir: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let receiver: Server;
  let receiverOrigin: string;
  const events: Event[] = [];
  const png = gradientPng(16, 16);
  const sql = (statement: string) =>
    execFileSync("psql", [database.url, "-v", "ON_ERROR_STOP=1", "-tAqc", statement]).toString().trim();

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        events.push(JSON.parse(body) as Event);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

    database = createTestDatabase(adminUrl!, "temporary_files");
    sharedDir = await mkdtemp(join(tmpdir(), "trove-temporary-"));
    const env = {
      DATABASE_URL: database.url,
      TROVE_SECRET_KEY: randomBytes(32).toString("hex"),
      TROVE_STORAGE_DIR: join(sharedDir, "storage"),
      TROVE_TRUSTED_RANGES: "127.0.0.0/8",
      TROVE_ADMIN_TOKEN: ADMIN_TOKEN,
      TROVE_FILE_EXPIRY_SWEEP_INTERVAL_MS: "200",
      TROVE_JOB_POLL_INTERVAL_MS: "100",
    };
    a = await startServerProcess(env);
    b = await startServerProcess(env, { keys: a.keys });
  });

  afterAll(async () => {
    await Promise.allSettled([a?.stop(), b?.stop()]);
    database?.drop();
    if (sharedDir) await rm(sharedDir, { recursive: true, force: true });
    await new Promise((resolve) => receiver?.close(resolve));
  });

  async function upload(instance: ServerProcess, key: string, name: string, expiresIn?: string) {
    const form = new FormData();
    form.set("file_name", name);
    if (expiresIn) form.set("expires_in", expiresIn);
    form.set("file", new Blob([png as BlobPart], { type: "image/png" }), name);
    const response = await fetch(`${instance.baseUrl}/api/v1/uploads`, {
      method: "POST",
      headers: { "x-api-key": key },
      body: form,
    });
    const body = (await response.json()) as { data: Record<string, unknown> };
    expect(response.status, JSON.stringify(body)).toBe(200);
    return uploadRecord(body) as unknown as UploadResponse & { workspace_no: string };
  }

  it("deletes each expired file once, 404 from its deadline on both instances", async () => {
    const temporary = await Promise.all(
      Array.from({ length: FILES }, (_, i) => upload(i % 2 ? b : a, a.keys.private, `tmp-${i}.png`, "3600")),
    );
    const lasting = await upload(a, a.keys.private, "lasting.png");
    expect(lasting.expires_at).toBeNull();
    for (const file of temporary) expect(file.expires_at).toEqual(expect.any(String));

    const minted = await api(a.baseUrl, a.keys.private, "POST", "/api/v1/uploads/tokens", {
      file_expires_in: 120,
    });
    expect(minted.status, minted.text).toBe(200);
    const fromToken = await upload(b, (minted.body as { token: string }).token, "token.png");
    const created = Date.parse(String(fromToken.created_at));
    expect((Date.parse(String(fromToken.expires_at)) - created) / 1000).toBeCloseTo(120, 0);

    const registered = await fetch(
      `${a.baseUrl}/admin/v1/workspaces/${lasting.workspace_no}/webhook-endpoints`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ url: `${receiverOrigin}/hooks`, events: ["file.deleted"] }),
      },
    );
    expect(registered.status, await registered.text()).toBe(201);

    const ids = sql(
      `SELECT string_agg(id::text, ',') FROM files WHERE file_no IN (${temporary.map((f) => f.file_no).join(",")})`,
    ).split(",");
    const objectsOf = async () =>
      (await storedObjects(sharedDir)).filter((key) => ids.some((id) => key.includes(id)));
    expect(await objectsOf()).toHaveLength(FILES);

    sql(`UPDATE files SET expires_at = now() - interval '1 second' WHERE expires_at IS NOT NULL`);
    // Answered 404 at once, swept or not: delivery and the API of either instance.
    for (const file of temporary) {
      for (const instance of [a, b]) {
        const delivered = await fetch(String(file.url).replace(a.baseUrl, instance.baseUrl));
        await delivered.arrayBuffer();
        expect(delivered.status).toBe(404);
        const details = await api(instance.baseUrl, a.keys.private, "GET", `/api/v1/files/${file.file_no}`);
        expect(details.status).toBe(404);
      }
    }
    const listed = await api(b.baseUrl, a.keys.private, "GET", "/api/v1/files?limit=100");
    const listedNos = (listed.body as { files: Array<{ file_no: string }> }).files.map((f) => f.file_no);
    expect(listedNos).toContain(lasting.file_no);
    for (const file of [...temporary, fromToken]) expect(listedNos).not.toContain(file.file_no);

    // Swept: the rows and their objects gone, every delivery job done.
    await waitFor(
      () => (sql("SELECT count(*) FROM files WHERE expires_at IS NOT NULL") === "0" ? true : undefined),
      "the sweep",
    );
    await waitFor(async () => ((await objectsOf()).length === 0 ? true : undefined), "objects removed");
    await waitFor(
      () =>
        sql("SELECT count(*) FROM jobs WHERE status IN ('pending', 'running')") === "0" ? true : undefined,
      "deliveries",
    );
    const deleted = events.filter((e) => e.type === "file.deleted");
    expect(deleted.map((e) => e.data.file_no).sort()).toEqual(
      [...temporary, fromToken].map((f) => f.file_no).sort(),
    );
    expect(deleted.every((e) => e.data.reason === "expired")).toBe(true);
    expect(sql(`SELECT count(*) FROM files WHERE file_no = ${lasting.file_no}`)).toBe("1");
  });
});
