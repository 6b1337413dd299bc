/**
 * Usage and quotas (issue #36): `workspace_usage` follows uploads, deletes and rendered variants;
 * a quota refuses an upload before its bytes are stored (direct, multipart start, tus creation,
 * remote) and at registration (the trigger), with nothing stored and nothing counted; null removes
 * a quota; `GET /api/v1/usage` is private-key only and validates `days`; delivery usage is counted
 * in memory and written in one upsert per flush.
 */
import { randomBytes } from "node:crypto";
import { type UsageDay, uploadErrorSchema, usageResponseSchema } from "@trove/schema";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ADMIN_TOKEN, admin, createAdminTestApp } from "./admin-support.js";
import { startRaw } from "./multipart-helpers.js";
import type { TestApp } from "./support/index.js";
import { forbidSystemDns, startTestServer, type TestServer } from "./support/network-doubles.js";
import { solid } from "./support/test-images.js";
import { tusClient } from "./tus-helpers.js";
import { directUpload, listObjects, pathOf, remoteUpload, uploaded } from "./uploads-helpers.js";

let t: TestApp;
let server: TestServer;
let restoreDns: () => void = () => {};
const tus = tusClient(() => t);

beforeAll(async () => {
  restoreDns = forbidSystemDns();
  server = await startTestServer((req, res) => {
    if (req.url === "/declared") res.writeHead(200, { "content-length": "5000" }).end(randomBytes(5000));
    else if (req.url === "/chunked") {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      for (let i = 0; i < 5; i++) res.write(randomBytes(1000));
      res.end();
    } else res.writeHead(404).end();
  });
  // A flush interval no test waits out: only an explicit flush writes delivery usage.
  t = await createAdminTestApp({ config: { trustedRanges: "127.0.0.0/8", usageFlushMs: 3_600_000 } });
});

afterAll(async () => {
  await t?.close();
  await server?.close();
  restoreDns();
});

async function usage(query = "", key = t.keys.private) {
  return t.app.inject({ method: "GET", url: `/api/v1/usage${query}`, headers: { "x-api-key": key } });
}

async function currentUsage() {
  const res = await usage();
  expect(res.statusCode).toBe(200);
  return usageResponseSchema.parse(res.json()).data;
}

async function setQuota(body: { max_files?: number | null; max_storage_bytes?: number | null }) {
  const res = await admin(t, "PATCH", `/admin/v1/workspaces/${t.workspace.workspaceNo}`, body, ADMIN_TOKEN);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

function expectQuotaRefusal(res: { statusCode: number; json(): unknown; body: string }) {
  expect(res.statusCode, res.body).toBe(403);
  const body = uploadErrorSchema.parse(res.json());
  expect(body.errorCode).toBe("QUOTA_EXCEEDED");
  expect(body.message).toMatch(/^This workspace stores .+ of its .+ quota/);
  return body;
}

const bytesUpload = (size: number, name: string) =>
  directUpload(t, { file_name: name }, { content: randomBytes(size), type: "application/octet-stream" });

describe("workspace usage", () => {
  it("counts uploads and deletes, files and bytes", async () => {
    const before = await currentUsage();
    const a = uploaded(await bytesUpload(1000, "a.bin"));
    uploaded(await bytesUpload(2000, "b.bin"));
    expect(await currentUsage()).toMatchObject({
      files: before.files + 2,
      storage_bytes: before.storage_bytes + 3000,
    });
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/files/${a.file_no}`,
      headers: { "x-api-key": t.keys.private },
    });
    expect(deleted.statusCode).toBe(200);
    expect(await currentUsage()).toMatchObject({
      files: before.files + 1,
      storage_bytes: before.storage_bytes + 2000,
    });
  });

  it("counts a rendered variant by its size, and drops it with its file", async () => {
    const png = await solid(300, 200, { r: 10, g: 100, b: 200 }, "png");
    const before = await currentUsage();
    const file = uploaded(await directUpload(t, { file_name: "v.png" }, { content: png, type: "image/png" }));
    const afterUpload = await currentUsage();
    const rendered = await t.app.inject({
      method: "GET",
      url: `/assets/${t.workspace.workspaceNo}/w_50/v.png`,
    });
    expect(rendered.statusCode).toBe(200);
    await t.app.delivery.settled();
    const variants = await t.app.db.fileVariant.findMany({ where: { fileId: file.id } });
    expect(variants).toHaveLength(1);
    const variantSize = Number(variants[0]?.size);
    expect(variantSize).toBe(rendered.rawPayload.length);
    const withVariant = await currentUsage();
    expect(withVariant.storage_bytes).toBe(afterUpload.storage_bytes + variantSize);

    await t.app.inject({
      method: "DELETE",
      url: `/api/v1/files/${file.file_no}`,
      headers: { "x-api-key": t.keys.private },
    });
    expect(await currentUsage()).toMatchObject({ files: before.files, storage_bytes: before.storage_bytes });
  });
  it("counts variants written and evicted many to a statement, and not a recorded use", async () => {
    const file = uploaded(await directUpload(t, { file_name: "batch.bin" }, { content: randomBytes(10) }));
    const start = (await currentUsage()).storage_bytes;
    const keys = ["a", "b", "c", "d"].map((k) => `variants/batch/${k}`);
    // One statement, as the variant store's batches: 100 + 200 + 300 + a row without a size.
    await t.app.db.$executeRaw`
      INSERT INTO file_variants (cache_key, file_id, last_used_at, size)
      SELECT k, ${file.id}::uuid, now(), s
        FROM unnest(${keys}::text[], ARRAY[100, 200, 300, NULL]::bigint[]) AS v(k, s)`;
    expect((await currentUsage()).storage_bytes).toBe(start + 600);

    // A recorded use (the store's upsert with the size the row had) counts nothing; a new size
    // counts its difference, in the same statement.
    await t.app.db.$executeRaw`
      INSERT INTO file_variants (cache_key, file_id, last_used_at, size)
      SELECT k, ${file.id}::uuid, now(), s
        FROM unnest(${keys.slice(0, 2)}::text[], ARRAY[100, 250]::bigint[]) AS v(k, s)
      ON CONFLICT (cache_key) DO UPDATE SET last_used_at = EXCLUDED.last_used_at, size = EXCLUDED.size`;
    expect((await currentUsage()).storage_bytes).toBe(start + 650);

    // An eviction removes several rows in one statement.
    await t.app.db.$executeRaw`DELETE FROM file_variants WHERE cache_key = ANY(${keys.slice(1)}::text[])`;
    expect((await currentUsage()).storage_bytes).toBe(start + 100);
    await t.app.db.$executeRaw`DELETE FROM file_variants WHERE cache_key = ${keys[0]}`;
    expect((await currentUsage()).storage_bytes).toBe(start);
  });

  it("counts cached origin copies and their variants, and drops them with their source", async () => {
    const before = await currentUsage();
    const source = await t.app.db.source.create({
      data: { workspaceId: t.workspace.id, name: "usage-origin", type: "s3", configuration: {} },
    });
    const copy = await t.app.db.originObject.create({
      data: {
        sourceId: source.id,
        path: "a.jpg",
        sourceVersion: source.createdAt,
        storageKey: `origins/${source.id}/a.jpg`,
        size: 7000n,
        mimeType: "image/jpeg",
        format: "jpeg",
        hash: "0".repeat(64),
        checkedAt: new Date(),
      },
    });
    await t.app.db.fileVariant.create({
      data: { cacheKey: `v/${copy.id}`, originObjectId: copy.id, size: 300n },
    });
    expect((await currentUsage()).storage_bytes).toBe(before.storage_bytes + 7300);
    await t.app.db.source.delete({ where: { id: source.id } });
    expect(await currentUsage()).toMatchObject({ files: before.files, storage_bytes: before.storage_bytes });
  });
});

describe("quotas", () => {
  it("refuses every upload path past max_storage_bytes with nothing stored or counted", async () => {
    const before = await currentUsage();
    const record = await setQuota({ max_storage_bytes: before.storage_bytes + 500 });
    expect(record.max_storage_bytes).toBe(before.storage_bytes + 500);
    expect(record.storage_bytes).toBe(before.storage_bytes);
    const listed = await admin(t, "GET", "/admin/v1/workspaces");
    const row = listed
      .json()
      .workspaces.find((w: { workspace_no: string }) => w.workspace_no === t.workspace.workspaceNo);
    expect(row).toMatchObject({
      storage_bytes: before.storage_bytes,
      max_storage_bytes: before.storage_bytes + 500,
    });
    const objects = await listObjects(t.storageDir);

    // Judged by its Content-Length before a byte is stored.
    const direct = expectQuotaRefusal(await bytesUpload(20_000, "too-big.bin"));
    expect(direct.message).toMatch(/; the upload is 1\d(\.\d)? kB$/);
    // Within the form allowance of the body's length: refused at registration, its bytes removed.
    expectQuotaRefusal(await bytesUpload(2000, "too-big.bin"));
    // Multipart answers policy refusals in its own envelope: `{ success: false, error, errorCode }`.
    const started = await startRaw(t, { file_name: "m.bin", size: 2000, format: "application/octet-stream" });
    expect(started.statusCode).toBe(403);
    expect(started.json()).toMatchObject({ success: false, errorCode: "QUOTA_EXCEEDED" });
    expect(started.json().error).toMatch(/^This workspace stores .+ of its .+ quota/);
    expectQuotaRefusal(await tus.create(2000, { filename: "t.bin" }));
    expectQuotaRefusal(await remoteUpload(t, { remote_url: `${server.origin}/declared` }));
    // No Content-Length to judge before: the insert's trigger refuses it, and the bytes go.
    expectQuotaRefusal(await remoteUpload(t, { remote_url: `${server.origin}/chunked` }));

    expect(await listObjects(t.storageDir)).toEqual(objects);
    expect(await t.app.db.tusUpload.count()).toBe(0);
    expect(await currentUsage()).toMatchObject({ files: before.files, storage_bytes: before.storage_bytes });

    // Within the quota: stored.
    uploaded(await bytesUpload(400, "fits.bin"));
    await setQuota({ max_storage_bytes: null });
  });

  it("refuses the file past max_files at registration, and null removes the quota", async () => {
    const before = await currentUsage();
    const record = await setQuota({ max_files: before.files + 1 });
    expect(record.max_files).toBe(before.files + 1);
    uploaded(await bytesUpload(10, "one.bin"));
    const refused = expectQuotaRefusal(await bytesUpload(10, "two.bin"));
    expect(refused.message).toBe(
      `This workspace stores ${before.files + 1} files of its ${before.files + 1} file quota`,
    );
    expect((await currentUsage()).files).toBe(before.files + 1);

    expect((await setQuota({ max_files: null })).max_files).toBeNull();
    uploaded(await bytesUpload(10, "two.bin"));
    expect(await currentUsage()).toMatchObject({ files: before.files + 2, max_files: null });
  });

  it("names the bytes stored and the quota in the message", async () => {
    const before = await currentUsage();
    await setQuota({ max_storage_bytes: 10_000_000 });
    await t.app.db.$executeRaw`
      UPDATE workspace_usage SET storage_bytes = 9900000 WHERE workspace_id = ${t.workspace.id}::uuid`;
    try {
      const body = expectQuotaRefusal(await bytesUpload(200_000, "near.bin"));
      expect(body.message).toMatch(/^This workspace stores 9\.9 MB of its 10 MB quota/);
    } finally {
      await t.app.db.$executeRaw`
        UPDATE workspace_usage SET storage_bytes = ${before.storage_bytes} WHERE workspace_id = ${t.workspace.id}::uuid`;
      await setQuota({ max_storage_bytes: null });
    }
  });
});

describe("GET /api/v1/usage", () => {
  it("is for private keys only", async () => {
    const res = await usage("", t.keys.public);
    expect(res.statusCode).toBe(403);
  });

  it.each(["0", "91", "abc", "1.5"])("refuses days=%s with 400 VALIDATION_FAILED", async (days) => {
    const res = await usage(`?days=${days}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, errorCode: "VALIDATION_FAILED" });
  });

  it("answers the last 30 days by default, oldest first, ending today (UTC)", async () => {
    const data = await currentUsage();
    expect(data.days).toHaveLength(30);
    expect(data.days.at(-1)?.date).toBe(new Date().toISOString().slice(0, 10));
    const three = usageResponseSchema.parse((await usage("?days=3")).json()).data;
    expect(three.days.map((d) => d.date)).toEqual(data.days.slice(-3).map((d) => d.date));
  });
});

describe("delivery usage", () => {
  it("counts in memory and writes once per flush", async () => {
    const file = uploaded(await bytesUpload(1234, "served.bin"));
    const png = await solid(120, 80, { r: 200, g: 20, b: 20 }, "png");
    uploaded(await directUpload(t, { file_name: "served.png" }, { content: png, type: "image/png" }));
    await t.app.deliveryUsage.flush();
    const today = async () => (await currentUsage()).days.at(-1) as UsageDay;
    const before = await today();

    let renderedBytes = 0;
    const query = vi.spyOn(t.app.database.sql, "$queryRaw");
    const usageWrites = () =>
      query.mock.calls.filter((call) =>
        String((call[0] as { text?: string }).text ?? call[0]).includes("usage_days"),
      ).length;
    try {
      for (let i = 0; i < 5; i++) {
        const res = await t.app.inject({ method: "GET", url: pathOf(file.url) });
        expect(res.statusCode).toBe(200);
      }
      // A fresh render counts as a request and a render; a missing file counts nothing.
      const rendered = await t.app.inject({
        method: "GET",
        url: `/assets/${t.workspace.workspaceNo}/w_30/served.png`,
      });
      expect(rendered.headers["x-cache"]).toBe("MISS");
      renderedBytes = rendered.rawPayload.length;
      const missing = await t.app.inject({
        method: "GET",
        url: `/assets/${t.workspace.workspaceNo}/nope.bin`,
      });
      expect(missing.statusCode).toBe(404);
      expect(usageWrites()).toBe(0);
      await t.app.deliveryUsage.flush();
      expect(usageWrites()).toBe(1);
    } finally {
      query.mockRestore();
    }
    expect(await today()).toEqual(
      expect.objectContaining({
        requests: before.requests + 6,
        bytes_served: before.bytes_served + 5 * 1234 + renderedBytes,
        renders: before.renders + 1,
      }),
    );
  });
});
