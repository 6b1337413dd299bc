// Webhooks a receiver can verify: the secret `trove-server webhooks secret` shows, rotation with a
// grace period, workspace endpoints and every event type, retries then `failed` as the deliveries
// command shows it, ordering per subject, and retention of finished jobs. Receivers run on
// 127.0.0.1 (trusted through the test config's trustedRanges) and verify with standardwebhooks.
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { Command } from "commander";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { JobStatus } from "../src/generated/prisma/client.js";
import { enqueueJob } from "../src/jobs/job-queue.js";
import { sweepFinishedJobs } from "../src/jobs/job-retention.js";
import { createJobRunner } from "../src/jobs/start-workers.js";
import { registerWebhookCommands } from "../src/webhooks/webhook-commands.js";
import { emitWorkspaceEvent, WORKSPACE_EVENT_TYPES } from "../src/webhooks/workspace-events.js";
import { complete, start, testBytes, uploadAll } from "./multipart-helpers.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { forbidSystemDns, startTestServer, type TestServer } from "./support/network-doubles.js";
import { solid } from "./support/test-images.js";
import { directUpload, remoteUpload, uploaded, waitFor } from "./uploads-helpers.js";

let restoreDns: () => void = () => {};
let receiver: TestServer;
let png: Buffer;
/** What the receiver answers (204 unless a test says otherwise). */
let answer: (res: ServerResponse, body: string) => void;

beforeAll(async () => {
  restoreDns = forbidSystemDns();
  png = await solid(20, 10, { r: 200, g: 10, b: 10 }, "png");
  receiver = await startTestServer((req, res, body) => {
    if (req.url === "/image.png") res.writeHead(200, { "content-type": "image/png" }).end(png);
    else answer(res, body);
  });
});
afterAll(async () => {
  await receiver?.close();
  restoreDns();
});
beforeEach(() => {
  answer = (res) => res.writeHead(204).end();
});

interface CliRun {
  code: number;
  out: string[];
  err: string[];
}

/** Runs `trove-server webhooks ...` against the test app's database and config. */
async function cli(t: TestApp, ...args: string[]): Promise<CliRun> {
  const run: CliRun = { code: 0, out: [], err: [] };
  const io = { out: (s: string) => run.out.push(s), err: (s: string) => run.err.push(s) };
  const program = new Command("trove-server")
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  registerWebhookCommands(program, { io, withDatabase: (fn) => fn({ prisma: t.app.db, config: t.config }) });
  try {
    await program.parseAsync(["webhooks", ...args], { from: "user" });
  } catch (error) {
    run.code = 1;
    run.err.push((error as Error).message);
  }
  return run;
}

function signatureHeaders(headers: IncomingHttpHeaders) {
  return {
    "webhook-id": String(headers["webhook-id"]),
    "webhook-timestamp": String(headers["webhook-timestamp"]),
    "webhook-signature": String(headers["webhook-signature"]),
  };
}

/** Whether `secret` verifies a recorded request. */
function verifies(secret: string, request: { body: string; headers: IncomingHttpHeaders }): boolean {
  try {
    new Webhook(secret).verify(request.body, signatureHeaders(request.headers));
    return true;
  } catch {
    return false;
  }
}

function requestsTo(path: string) {
  return receiver.requests.filter((r) => r.url === path);
}

describe("the signing secret: shown by the CLI, rotated with a grace period", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: { trustedRanges: "127.0.0.0/8", workers: true, jobPollIntervalMs: 50 },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function uploadAndReceive(path: string) {
    uploaded(
      await directUpload(
        t,
        { file_name: `${path.slice(1)}.png`, webhook_url: `${receiver.origin}${path}` },
        { content: png },
      ),
    );
    return waitFor(() => requestsTo(path)[0]);
  }

  it("shows the secret deliveries are signed with; an unknown workspace is a clear error", async () => {
    const shown = await cli(t, "secret", "--workspace", t.workspace.workspaceNo);
    expect(shown.code).toBe(0);
    expect(shown.out).toEqual([expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/)]);
    const request = await uploadAndReceive("/secret");
    expect(verifies(shown.out[0] as string, request)).toBe(true);

    const missing = await cli(t, "secret", "--workspace", "nosuchws");
    expect(missing.code).toBe(1);
    expect(missing.err.join("\n")).toContain("No workspace nosuchws");
    const badGrace = await cli(t, "rotate", "--workspace", t.workspace.workspaceNo, "--grace", "soon");
    expect(badGrace.code).toBe(1);
    expect(badGrace.err.join("\n")).toMatch(/duration/);
  });

  it("signs with both secrets during the grace, then with the new one only", async () => {
    const old = (await cli(t, "secret", "-w", t.workspace.workspaceNo)).out[0] as string;
    const rotated = await cli(t, "rotate", "-w", t.workspace.workspaceNo, "--grace", "24h");
    expect(rotated.code).toBe(0);
    const fresh = rotated.out[0] as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    expect(rotated.err.join("\n")).toMatch(/both signatures until \d{4}-/);
    expect((await cli(t, "secret", "-w", t.workspace.workspaceNo)).out).toEqual([fresh]);

    const during = await uploadAndReceive("/during-grace");
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifies(fresh, during)).toBe(true);
    expect(verifies(old, during)).toBe(true);

    // The grace is over (moved into the past rather than waited for).
    await t.app.db.workspace.update({
      where: { id: t.workspace.id },
      data: { previousWebhookSecretExpiresAt: new Date(Date.now() - 1000) },
    });
    const after = await uploadAndReceive("/after-grace");
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifies(fresh, after)).toBe(true);
    expect(verifies(old, after)).toBe(false);
  });

  it("--grace 0 drops the old secret at once", async () => {
    const old = (await cli(t, "secret", "-w", t.workspace.workspaceNo)).out[0] as string;
    const fresh = (await cli(t, "rotate", "-w", t.workspace.workspaceNo, "--grace", "0")).out[0] as string;
    const request = await uploadAndReceive("/no-grace");
    expect(verifies(fresh, request)).toBe(true);
    expect(verifies(old, request)).toBe(false);
  });
});

interface ReceivedEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

describe("workspace endpoints receive every event type, signed with the secret the CLI shows", () => {
  let t: TestApp;
  let secret: string;
  beforeAll(async () => {
    t = await createTestApp({
      config: {
        trustedRanges: "127.0.0.0/8",
        workers: true,
        jobPollIntervalMs: 50,
        multipart: { sweepIntervalMs: 200 },
      },
    });
    secret = (await cli(t, "secret", "-w", t.workspace.workspaceNo)).out[0] as string;
  });
  afterAll(async () => {
    await t?.close();
  });

  function api(method: "POST" | "PATCH" | "DELETE", url: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: { "x-api-key": t.keys.private },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  }

  /** Verified events received at `path`, in arrival order (throws on any bad signature). */
  function received(path: string): ReceivedEvent[] {
    return requestsTo(path).map(
      (r) => new Webhook(secret).verify(r.body, signatureHeaders(r.headers)) as ReceivedEvent,
    );
  }

  it("refuses bad endpoints with clear errors, and lists the good ones", async () => {
    const ws = t.workspace.workspaceNo;
    const addWithEvents = (events: string) =>
      cli(t, "add", "-w", ws, "--url", `${receiver.origin}/x`, "--events", events);
    const unknown = await addWithEvents("file.exploded");
    expect(unknown.code).toBe(1);
    expect(unknown.err.join("\n")).toMatch(/Unknown event type file\.exploded/);
    expect((await addWithEvents("*,file.deleted")).code).toBe(1);
    expect((await addWithEvents(" , ")).code).toBe(1);
    const privateUrl = await cli(t, "add", "-w", ws, "--url", "http://10.0.0.1/hook");
    expect(privateUrl.code).toBe(1);
    expect(privateUrl.err.join("\n")).toMatch(/webhook_url/);
    const notUrl = await cli(t, "add", "-w", ws, "--url", "ftp://example.test/hook");
    expect(notUrl.code).toBe(1);
    expect(await t.app.db.webhookEndpoint.count()).toBe(0);

    const all = await cli(t, "add", "-w", ws, "--url", `${receiver.origin}/hooks/all`);
    expect(all.code).toBe(0);
    expect(all.out[0]).toMatch(/^[0-9a-f-]{36}$/);
    const folders = await cli(
      t,
      "add",
      "-w",
      ws,
      "--url",
      `${receiver.origin}/hooks/folders`,
      "--events",
      "folder.deleted",
    );
    expect(folders.code).toBe(0);
    const listed = (await cli(t, "list", "-w", ws)).out.join("\n");
    expect(listed).toContain(`${all.out[0]}`);
    expect(listed).toContain("/hooks/folders");
    expect(listed).toContain("folder.deleted");
  });

  it("delivers every event type, verified with the shown secret", async () => {
    // Uploads of all three kinds; the direct one creates two folders on its way.
    const direct = uploaded(
      await directUpload(t, { file_name: "a.png", folder: "albums/2024" }, { content: png }),
    );
    const remote = uploaded(await remoteUpload(t, { remote_url: `${receiver.origin}/image.png` }));
    const data = testBytes(4096, 3);
    const session = await start(t, { file_name: "big.bin", size: data.length });
    await uploadAll(t, session, data);
    const multipart = await complete(t, session.session_id);

    expect((await api("PATCH", `/api/v1/files/${direct.file_no}/rename`, { name: "b" })).statusCode).toBe(
      200,
    );
    expect((await api("DELETE", `/api/v1/files/${remote.file_no}`)).statusCode).toBe(200);
    const created = await api("POST", "/api/v1/folders", { name: "inbox" });
    expect(created.statusCode).toBe(200);
    const folderNo = (created.json() as { folder_no: string }).folder_no;
    expect((await api("POST", `/api/v1/folders/rename/${folderNo}`, { name: "outbox" })).statusCode).toBe(
      200,
    );
    expect((await api("DELETE", `/api/v1/folders/${folderNo}`)).statusCode).toBe(200);
    // file.updated comes from the privacy PATCH; emitted here the way that route does.
    const file = await t.app.db.file.findFirstOrThrow({ where: { fileNo: BigInt(multipart.file_no) } });
    await t.app.db.$transaction((tx) =>
      emitWorkspaceEvent(tx, {
        workspaceId: t.workspace.id,
        type: "file.updated",
        data: { id: file.id, is_private: true },
        subject: file.id,
      }),
    );

    const events = await waitFor(() => {
      const got = received("/hooks/all");
      return got.length >= 11 ? got : undefined;
    });
    const byType = (type: string) => events.filter((e) => e.type === type);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(WORKSPACE_EVENT_TYPES));
    expect(byType("file.uploaded").find((e) => e.data.file_no === direct.file_no)?.data).toEqual(direct);
    expect(
      byType("folder.created")
        .map((e) => e.data.path)
        .sort(),
    ).toEqual(["albums", "albums/2024", "inbox"]);
    expect(byType("file.renamed")[0]?.data).toMatchObject({
      file_no: direct.file_no,
      name: "b.png",
      path: "albums/2024/b.png",
      previous_name: "a.png",
      previous_path: "albums/2024/a.png",
    });
    expect(byType("file.deleted")[0]?.data).toMatchObject({ file_no: remote.file_no, path: remote.path });
    expect(byType("folder.renamed")[0]?.data).toMatchObject({
      folder_no: folderNo,
      name: "outbox",
      previous_name: "inbox",
    });
    expect(byType("folder.deleted")[0]?.data).toMatchObject({ folder_no: folderNo, path: "outbox" });
    expect(byType("file.updated")[0]?.data).toEqual({ id: file.id, is_private: true });
    // The endpoint subscribed to folder.deleted alone got that and nothing else.
    expect(received("/hooks/folders").map((e) => e.type)).toEqual(["folder.deleted"]);
  });

  it("a removed endpoint receives nothing more", async () => {
    const ws = t.workspace.workspaceNo;
    const endpoint = await t.app.db.webhookEndpoint.findFirstOrThrow({
      where: { url: { endsWith: "/hooks/folders" } },
    });
    expect((await cli(t, "remove", endpoint.id, "-w", ws)).code).toBe(0);
    expect((await cli(t, "remove", endpoint.id, "-w", ws)).code).toBe(1);
    expect((await cli(t, "remove", "not-an-id", "-w", ws)).code).toBe(1);
    const created = await api("POST", "/api/v1/folders", { name: "short-lived" });
    const folderNo = (created.json() as { folder_no: string }).folder_no;
    expect((await api("DELETE", `/api/v1/folders/${folderNo}`)).statusCode).toBe(200);
    await waitFor(() =>
      received("/hooks/all").find((e) => e.type === "folder.deleted" && e.data.folder_no === folderNo),
    );
    expect(received("/hooks/folders")).toHaveLength(1);
  });

  it("runs the retention sweep on the workers' clock", async () => {
    // The jobs aged here, by id: a delivery of an earlier test may still succeed after this
    // statement, with a fresh timestamp that retention rightly keeps.
    const aged = await t.app.db.$queryRaw<Array<{ id: string }>>`
      UPDATE jobs SET updated_at = now() - interval '8 days' WHERE status = 'succeeded' RETURNING id`;
    expect(aged.length).toBeGreaterThan(0);
    const ids = aged.map((row) => row.id);
    await waitFor(async () =>
      (await t.app.db.job.count({ where: { id: { in: ids } } })) === 0 ? true : undefined,
    );
  });
});

describe("retries, failure and ordering (the test drives the runner)", () => {
  let t: TestApp;
  let runner: ReturnType<typeof createJobRunner>;
  beforeAll(async () => {
    t = await createTestApp({
      config: { trustedRanges: "127.0.0.0/8", webhooks: { maxAttempts: 3, timeoutMs: 5_000 } },
    });
    runner = createJobRunner(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Makes every pending job due now (instead of waiting out its backoff), then runs one batch. */
  async function runDue(): Promise<void> {
    await t.app.db.job.updateMany({ where: { status: "pending" }, data: { runAt: new Date(0) } });
    await runner.runOnce();
  }

  async function emit(type: "file.deleted" | "file.updated", subject: string, data: unknown) {
    await t.app.db.$transaction((tx) =>
      emitWorkspaceEvent(tx, { workspaceId: t.workspace.id, type, data, subject }),
    );
  }

  async function deliveryLines(...args: string[]): Promise<string[]> {
    const run = await cli(t, "deliveries", "-w", t.workspace.workspaceNo, ...args);
    expect(run.code).toBe(0);
    return run.out.slice(1);
  }

  it("retries a receiver that is down with backoff, then marks the delivery failed", async () => {
    const ws = t.workspace.workspaceNo;
    const endpointId = (
      await cli(t, "add", "-w", ws, "--url", `${receiver.origin}/hooks/down`, "--events", "file.deleted")
    ).out[0] as string;
    answer = (res) => res.writeHead(503).end();
    await emit("file.deleted", "f-down", { id: "f-down" });

    await runner.runOnce();
    expect(requestsTo("/hooks/down")).toHaveLength(1);
    const job = await t.app.db.job.findFirstOrThrow({ where: { kind: "webhook" } });
    expect(job.status).toBe("pending");
    expect(job.runAt.getTime()).toBeGreaterThan(Date.now()); // backoff: not due again yet
    await runner.runOnce();
    expect(requestsTo("/hooks/down")).toHaveLength(1);
    const [retrying] = await deliveryLines("--endpoint", endpointId);
    expect(retrying).toMatch(/file\.deleted\s+\S+\s+pending\s+1\/3\s+\d{4}-\S+\s+receiver answered HTTP 503/);

    await runDue();
    await runDue();
    expect(requestsTo("/hooks/down")).toHaveLength(3);
    const [failed] = await deliveryLines("--endpoint", endpointId);
    expect(failed).toContain(endpointId);
    expect(failed).toMatch(/failed\s+3\/3\s+-\s+receiver answered HTTP 503/);
    await runDue();
    expect(requestsTo("/hooks/down")).toHaveLength(3);
    // The limit is checked; another endpoint's filter shows none of these.
    expect((await cli(t, "deliveries", "-w", ws, "--limit", "0")).code).toBe(1);
    expect(await deliveryLines("--endpoint", "00000000-0000-7000-8000-000000000000")).toEqual([]);
  });

  it("delivers the events of one subject in order: a later one waits for the earlier one", async () => {
    const ws = t.workspace.workspaceNo;
    await cli(t, "add", "-w", ws, "--url", `${receiver.origin}/hooks/ordered`, "--events", "file.updated");
    let failFirst = true; // the first attempt of event 1 fails
    answer = (res, body) => {
      const fail = failFirst && (JSON.parse(body) as { data: { n: number } }).data.n === 1;
      if (fail) failFirst = false;
      res.writeHead(fail ? 500 : 204).end();
    };
    await emit("file.updated", "file-a", { n: 1 });
    await emit("file.updated", "file-a", { n: 2 });
    await emit("file.updated", "file-b", { n: 3 });
    const seen = () =>
      requestsTo("/hooks/ordered").map((r) => (JSON.parse(r.body) as { data: { n: number } }).data.n);

    await runDue(); // 1 fails (retry pending), 2 is held back behind it, 3 (another subject) goes
    expect(seen().sort()).toEqual([1, 3]);
    await runDue(); // 1 is delivered; 2 was still held back when the batch was claimed
    expect(seen()).toHaveLength(3);
    expect(seen().slice(2)).toEqual([1]);
    await runDue();
    expect(seen().slice(3)).toEqual([2]);
  });

  it("deletes finished jobs of every kind after the retention period, never unfinished ones", async () => {
    await enqueueJob(t.app.db, { kind: "no.handler", payload: {} }); // stays pending: no runner takes it
    await t.app.db.job.create({ data: { kind: "storage.delete-objects", status: "succeeded" } });
    const finished = { status: { in: ["succeeded", "failed"] as JobStatus[] } };
    const finishedCount = await t.app.db.job.count({ where: finished });
    const total = await t.app.db.job.count();
    expect(finishedCount).toBeGreaterThanOrEqual(5); // delivered, failed, and the one above
    expect((await deliveryLines()).some((line) => line.includes("failed"))).toBe(true);

    // Finished less than TROVE_JOB_RETENTION_HOURS ago: kept.
    expect(await sweepFinishedJobs(t.app.db, t.config.jobRetentionMs)).toBe(0);
    // A week and a day later (the clock moved by ageing every row, unfinished ones included).
    await t.app.db.$executeRaw`UPDATE jobs SET updated_at = now() - interval '8 days'`;
    expect(await sweepFinishedJobs(t.app.db, t.config.jobRetentionMs)).toBe(finishedCount);
    expect(await t.app.db.job.count()).toBe(total - finishedCount);
    expect(await t.app.db.job.count({ where: finished })).toBe(0);
    expect(await t.app.db.job.count({ where: { kind: "no.handler", status: "pending" } })).toBe(1);
    expect((await deliveryLines()).some((line) => line.includes("failed"))).toBe(false);
  });
});
