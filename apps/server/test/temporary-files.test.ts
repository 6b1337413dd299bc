// Temporary files (issue #34 part 4): `expires_in` on direct, remote and multipart uploads and a
// policy's `file_expires_in` on upload tokens; `expires_at` in the records; 404 from the deadline
// on (delivery, details, list, delete) before the sweep; the sweep deletes the row, its objects
// and variants and announces `file.deleted` with `reason: "expired"` once, however many sweepers
// race; bad values are 400s. Deadlines are moved into the past in the database rather than
// waited for. The app runs the real job runner and the sweep timer; webhooks reach a receiver on
// 127.0.0.1.
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepExpiredFiles } from "../src/files/expire-files.js";
import { variantCachePrefix } from "../src/media/variant-cache-key.js";
import { addEndpoint } from "../src/webhooks/endpoints.js";
import { complete, start, testBytes, uploadAll } from "./multipart-helpers.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { forbidSystemDns, startTestServer, type TestServer } from "./support/network-doubles.js";
import { solid } from "./support/test-images.js";
import {
  directUpload,
  listObjects,
  mintUploadToken,
  pathOf,
  remoteUpload,
  uploaded,
  waitFor,
} from "./uploads-helpers.js";

let restoreDns: () => void = () => {};
let receiver: TestServer;
let png: Buffer;

interface DeliveredEvent {
  type: string;
  data: Record<string, unknown>;
}

function deletedEvents(fileNo: string): DeliveredEvent[] {
  return receiver.requests
    .filter((r) => r.url === "/hooks")
    .map((r) => JSON.parse(r.body) as DeliveredEvent)
    .filter((e) => e.type === "file.deleted" && e.data.file_no === fileNo);
}

/** Seconds from `from` to `to` (ISO strings). */
function secondsBetween(from: string, to: string): number {
  return (Date.parse(to) - Date.parse(from)) / 1000;
}

beforeAll(async () => {
  restoreDns = forbidSystemDns();
  png = await solid(24, 16, { r: 10, g: 120, b: 200 }, "png");
  receiver = await startTestServer((req, res) => {
    if (req.url === "/image.png") res.writeHead(200, { "content-type": "image/png" }).end(png);
    else res.writeHead(204).end();
  });
});
afterAll(async () => {
  await receiver?.close();
  restoreDns();
});

describe("temporary files", () => {
  let t: TestApp;
  const api = (method: "GET" | "DELETE", url: string) =>
    t.app.inject({ method, url, headers: { "x-api-key": t.keys.private } });
  const listedFileNos = async () =>
    ((await api("GET", "/api/v1/files?limit=100")).json().files as Array<{ file_no: string }>).map(
      (row) => row.file_no,
    );
  /** The deadline moved to a second ago, as if the file's time had run out. */
  const expireNow = (fileNo: string) =>
    t.app.db.file.update({
      where: { fileNo: BigInt(fileNo) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        trustedRanges: "127.0.0.0/8",
        workers: true,
        jobPollIntervalMs: 50,
        // The timer sweeps once at start, then not within this suite: the tests sweep themselves.
        fileExpirySweepIntervalMs: 3_600_000,
      },
    });
    await addEndpoint(t.app.db, {
      workspaceId: t.workspace.id,
      url: `${receiver.origin}/hooks`,
      eventTypes: ["file.deleted"],
      trustedRanges: "127.0.0.0/8",
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a direct upload with expires_in carries expires_at in the response and the details", async () => {
    const file = uploaded(
      await directUpload(t, { file_name: "draft.png", expires_in: "3600" }, { content: png }),
    );
    expect(file.expires_at).toEqual(expect.any(String));
    expect(secondsBetween(file.created_at, file.expires_at as string)).toBeCloseTo(3600, 0);
    const details = await api("GET", `/api/v1/files/${file.file_no}`);
    expect(details.statusCode).toBe(200);
    expect(details.json().data.expires_at).toBe(file.expires_at);
    // A shared cache keeps it until it expires, not for the year a lasting file gets.
    const delivered = await t.app.inject({ method: "GET", url: pathOf(file.url) });
    expect(delivered.statusCode).toBe(200);
    const maxAge = Number(/max-age=(\d+)/.exec(String(delivered.headers["cache-control"]))?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(3600);

    const lasting = uploaded(await directUpload(t, { file_name: "keep.png" }, { content: png }));
    expect(lasting.expires_at).toBeNull();
  });

  it("remote and multipart uploads take expires_in too (multipart: at start, counted from complete)", async () => {
    const remote = uploaded(
      await remoteUpload(t, { remote_url: `${receiver.origin}/image.png`, expires_in: 120 }),
    );
    expect(secondsBetween(remote.created_at, remote.expires_at as string)).toBeCloseTo(120, 0);

    const data = testBytes(4096, 7);
    const session = await start(t, { file_name: "part.bin", size: data.length, expires_in: 600 });
    await uploadAll(t, session, data);
    const done = await complete(t, session.session_id);
    const details = (await api("GET", `/api/v1/files/${done.file_no}`)).json().data;
    const row = await t.app.db.file.findUniqueOrThrow({ where: { fileNo: BigInt(done.file_no) } });
    expect(details.expires_at).toBe(row.expiresAt?.toISOString());
    expect(secondsBetween(row.createdAt.toISOString(), details.expires_at)).toBeCloseTo(600, 0);
  });

  it("past its deadline a file answers 404 everywhere before the sweep; the sweep deletes it once, objects and variants too", async () => {
    const file = uploaded(
      await directUpload(t, { file_name: "gone.png", expires_in: "60" }, { content: png }),
    );
    const variantUrl = pathOf(file.url).replace("/gone.png", "/w_8/gone.png");
    expect((await t.app.inject({ method: "GET", url: variantUrl })).statusCode).toBe(200);
    const row = await t.app.db.file.findUniqueOrThrow({ where: { fileNo: BigInt(file.file_no) } });
    // The original and the rendered variant (cached after the response, so waited for).
    const variants = variantCachePrefix(row.storageKey);
    const ownObjects = async () =>
      (await listObjects(t.storageDir)).filter((key) => key.includes(row.id) || key.startsWith(variants));
    await waitFor(async () => ((await ownObjects()).length >= 2 ? true : undefined));

    expect(await listedFileNos()).toContain(file.file_no);
    await expireNow(file.file_no);
    expect((await t.app.inject({ method: "GET", url: pathOf(file.url) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: variantUrl })).statusCode).toBe(404);
    expect((await api("GET", `/api/v1/files/${file.file_no}`)).statusCode).toBe(404);
    expect(await listedFileNos()).not.toContain(file.file_no);
    // Nor can it be renamed or made public again in the meantime.
    const patch = (url: string, payload: object) =>
      t.app.inject({ method: "PATCH", url, payload, headers: { "x-api-key": t.keys.private } });
    expect((await patch(`/api/v1/files/${file.file_no}/rename`, { name: "kept" })).statusCode).toBe(404);
    expect((await patch(`/api/v1/files/${file.file_no}`, { is_private: true })).statusCode).toBe(404);
    // Not the API's to delete any more: the sweep's, with its reason.
    expect((await api("DELETE", `/api/v1/files/${file.file_no}`)).statusCode).toBe(404);
    expect(await t.app.db.file.count({ where: { id: row.id } })).toBe(1);

    // Three sweepers at once, as three instances would: one deletes, the others find nothing.
    const counts = await Promise.all([1, 2, 3].map(() => sweepExpiredFiles(t.app)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await t.app.db.file.count({ where: { id: row.id } })).toBe(0);
    expect(await ownObjects()).toEqual([]);

    const [event] = await waitFor(() => {
      const got = deletedEvents(file.file_no);
      return got.length > 0 ? got : undefined;
    });
    expect(event?.data).toMatchObject({ file_no: file.file_no, path: file.path, reason: "expired" });
    // Every webhook job has run (none pending): still exactly one event.
    await waitFor(async () =>
      (await t.app.db.job.count({ where: { status: { in: ["pending", "running"] } } })) === 0
        ? true
        : undefined,
    );
    expect(deletedEvents(file.file_no)).toHaveLength(1);
  });

  it("a file deleted through the API is announced with reason deleted", async () => {
    const file = uploaded(
      await directUpload(t, { file_name: "manual.png", expires_in: "600" }, { content: png }),
    );
    expect((await api("DELETE", `/api/v1/files/${file.file_no}`)).statusCode).toBe(200);
    const [event] = await waitFor(() => {
      const got = deletedEvents(file.file_no);
      return got.length > 0 ? got : undefined;
    });
    expect(event?.data.reason).toBe("deleted");
  });

  it("an upload token's file_expires_in applies to its files; an upload may shorten it, not lengthen it", async () => {
    const token = await mintUploadToken(t, { file_expires_in: 600, max_files: 5 });
    expect(token.policy.file_expires_in).toBe(600);
    const bound = uploaded(
      await directUpload(t, { file_name: "t1.png" }, { content: png }, { key: token.token }),
    );
    expect(secondsBetween(bound.created_at, bound.expires_at as string)).toBeCloseTo(600, 0);
    const shorter = uploaded(
      await directUpload(
        t,
        { file_name: "t2.png", expires_in: "60" },
        { content: png },
        { key: token.token },
      ),
    );
    expect(secondsBetween(shorter.created_at, shorter.expires_at as string)).toBeCloseTo(60, 0);

    const longer = await directUpload(
      t,
      { file_name: "t3.png", expires_in: "601" },
      { content: png },
      { key: token.token },
    );
    expectInvalid(longer, /expires_in: must be at most 600 seconds/);
    const longerSession = await t.app.inject({
      method: "POST",
      url: "/api/v1/multipart/start",
      headers: { "x-api-key": token.token },
      payload: { file_name: "t4.bin", size: 10, format: "application/octet-stream", expires_in: 601 },
    });
    expect(longerSession.statusCode).toBe(400);
    expect(longerSession.body).toMatch(/at most 600 seconds/);
    // The refusals stored nothing and spent none of the token's files.
    expect(await t.app.db.file.count({ where: { name: { in: ["t3.png", "t4.bin"] } } })).toBe(0);
  });

  it("refuses bad expires_in values with the upload group's 400", async () => {
    for (const bad of ["0", "-5", "1.5", "abc", "1e3", "59", "31536001"]) {
      const res = await directUpload(t, { file_name: "bad.png", expires_in: bad }, { content: png });
      expectInvalid(res, /^expires_in: /);
    }
    for (const bad of [0, -5, 1.5, "abc", 31_536_001, true]) {
      const res = await remoteUpload(t, { remote_url: `${receiver.origin}/image.png`, expires_in: bad });
      expectInvalid(res, /^expires_in: /);
    }
    for (const bad of [0, 1.5, "600", 31_536_001]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/multipart/start",
        headers: { "x-api-key": t.keys.private },
        payload: { file_name: "bad.bin", size: 10, format: "application/octet-stream", expires_in: bad },
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.body).toMatch(/expires_in/);
    }
    for (const bad of [0, 30, 1.5, "600", 31_536_001]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/uploads/tokens",
        headers: { "x-api-key": t.keys.private },
        payload: { file_expires_in: bad },
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.body).toMatch(/file_expires_in/);
    }
    expect(await t.app.db.file.count({ where: { name: { in: ["bad.png", "bad.bin"] } } })).toBe(0);
  });
});

describe("the sweep timer of a worker instance", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: { workers: true, jobPollIntervalMs: 50, fileExpirySweepIntervalMs: 100 },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("deletes an expired file on its own, and leaves the others", async () => {
    const lasting = uploaded(await directUpload(t, { file_name: "lasting.png" }, { content: png }));
    const later = uploaded(
      await directUpload(t, { file_name: "later.png", expires_in: "3600" }, { content: png }),
    );
    const file = uploaded(
      await directUpload(t, { file_name: "timer.png", expires_in: "60" }, { content: png }),
    );
    await t.app.db.file.update({
      where: { fileNo: BigInt(file.file_no) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await waitFor(async () =>
      (await t.app.db.file.count({ where: { fileNo: BigInt(file.file_no) } })) === 0 ? true : undefined,
    );
    const left = await t.app.db.file.count({
      where: { fileNo: { in: [BigInt(lasting.file_no), BigInt(later.file_no)] } },
    });
    expect(left).toBe(2);
  });
});

function expectInvalid(res: LightMyRequestResponse, message: RegExp): void {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json() as { success: boolean; errorCode: string; message: string };
  expect(body.success).toBe(false);
  expect(body.errorCode).toBe("VALIDATION_FAILED");
  expect(body.message).toMatch(message);
}
