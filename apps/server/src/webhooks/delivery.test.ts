// Webhook delivery end to end: a PGlite database with the real migrations, JobRunner instances, and
// receivers this file starts on 127.0.0.1 (allowed through trustedRanges). Every delivery also goes
// through loopbackOnlyConnector or refusingConnector, and names resolve from a table, so no traffic
// can leave loopback whatever the guard does.
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  forbidSystemDnsInThisFile,
  loopbackOnlyConnector,
  refusingConnector,
  startTestServer,
  type TestServer,
  tableLookup,
} from "../../test/support/network-doubles.js";
import { type Database, openDatabase } from "../db/database.js";
import { JobRunner, type JobRunnerOptions } from "../jobs/job-runner.js";
import { RemoteFetchError } from "../network/remote-fetch-error.js";
import {
  createWebhookHandler,
  deliverWebhook,
  enqueueWebhook,
  fileUploadedEvent,
  WEBHOOK_JOB_KIND,
  type WebhookHandlerOptions,
  type WebhookJobPayload,
} from "./delivery.js";
import { generateWebhookSecret, oneOffWebhookSecret, signWebhook } from "./signing.js";

// No test here may use the system resolver: every name comes from tableLookup.
forbidSystemDnsInThisFile();

const TRUST = ["127.0.0.0/8"];
const uploadResponse = {
  file_no: "42",
  name: "cat.jpg",
  url: "http://assets.test/ws1/cat.jpg",
  path: "cat.jpg",
  format: "jpeg",
  file_size: 1234,
};

let db: Database;
let workspaceId: string;
let secret: string;
let receiver: TestServer;
/** Statuses the receiver answers with, in order; then 200. */
let script: number[] = [];
const runners: JobRunner[] = [];

beforeAll(async () => {
  db = await openDatabase({ kind: "pglite", dataDir: null });
  await db.migrate();
  secret = generateWebhookSecret();
  const workspace = await db.prisma.workspace.create({
    data: { workspaceNo: "whtest", name: "Webhook tests", webhookSecret: secret },
  });
  workspaceId = workspace.id;
  receiver = await startTestServer((_req, res) => {
    res.writeHead(script.shift() ?? 200).end("thanks");
  });
});

afterAll(async () => {
  await receiver?.close();
  await db?.close();
});

beforeEach(async () => {
  await db.prisma.job.deleteMany();
  receiver.requests.length = 0;
  receiver.connections = 0;
  script = [];
});

afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
});

/** Receivers are addressed by a name the test resolver maps to 127.0.0.1 (the connect-time path). */
const hooks = (server: TestServer) => `http://hooks.localhost:${server.port}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function handlerOptions(overrides: Partial<WebhookHandlerOptions> = {}): WebhookHandlerOptions {
  return {
    // Tests keep the secret in plaintext; the server decrypts workspace.webhookSecret here.
    resolveSecrets: async (id) => {
      const workspace = await db.prisma.workspace.findUnique({ where: { id } });
      return workspace ? [workspace.webhookSecret] : [];
    },
    trustedRanges: TRUST,
    timeoutMs: 2_000,
    lookup: tableLookup({ "hooks.localhost": "127.0.0.1" }),
    connect: loopbackOnlyConnector(),
    ...overrides,
  };
}

function newRunner(options: JobRunnerOptions = {}, handler = handlerOptions()): JobRunner {
  const runner = new JobRunner(db.prisma, { backoff: { baseMs: 1, factor: 2, jitter: 0 }, ...options });
  runner.register(WEBHOOK_JOB_KIND, createWebhookHandler(handler));
  runners.push(runner);
  return runner;
}

async function runUntilSettled(runner: JobRunner, passes = 50): Promise<void> {
  for (let i = 0; i < passes; i++) {
    await runner.runOnce();
    const open = await db.prisma.job.count({ where: { status: { in: ["pending", "running"] } } });
    if (open === 0) return;
    await sleep(5);
  }
  throw new Error("jobs did not settle");
}

describe("webhook delivery", () => {
  it("delivers a signed file.uploaded event that standardwebhooks verifies", async () => {
    const at = new Date("2026-11-22T10:00:00.000Z");
    const { jobId, webhookId } = await enqueueWebhook(db.prisma, {
      workspaceId,
      url: `${hooks(receiver)}/hook?x=1`,
      payload: fileUploadedEvent(uploadResponse, at),
    });
    // Enqueueing sends nothing.
    expect(receiver.requests).toHaveLength(0);
    expect(await newRunner().runOnce()).toBe(1);

    expect(receiver.requests).toHaveLength(1);
    const request = receiver.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/hook?x=1");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Trove-Webhooks/1.0");
    expect(request.headers["webhook-id"]).toBe(webhookId);
    expect(webhookId).toMatch(/^msg_[0-9a-f-]{36}$/);
    expect(request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const headers = {
      "webhook-id": String(request.headers["webhook-id"]),
      "webhook-timestamp": String(request.headers["webhook-timestamp"]),
      "webhook-signature": String(request.headers["webhook-signature"]),
    };
    expect(new Webhook(secret).verify(request.body, headers)).toEqual({
      type: "file.uploaded",
      timestamp: "2026-11-22T10:00:00.000Z",
      data: uploadResponse,
    });
    // A tampered body or another secret does not verify.
    expect(() => new Webhook(secret).verify(request.body.replace("cat", "dog"), headers)).toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(request.body, headers)).toThrow();

    expect(await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({
      kind: "webhook",
      status: "succeeded",
      attempts: 1,
    });
  });

  it("retries 500, 500 then delivers on the 3rd attempt, same webhook-id, fresh signature", async () => {
    script = [500, 500];
    const { jobId, webhookId } = await enqueueWebhook(db.prisma, {
      workspaceId,
      url: `${hooks(receiver)}/hook`,
      payload: fileUploadedEvent(uploadResponse),
    });
    const runner = newRunner();

    await runner.runOnce();
    const afterFirst = await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(afterFirst).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: "receiver answered HTTP 500",
    });
    expect(afterFirst.runAt.getTime()).toBeGreaterThan(afterFirst.createdAt.getTime());

    await runUntilSettled(runner);
    expect(await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({
      status: "succeeded",
      attempts: 3,
    });
    expect(receiver.requests).toHaveLength(3);
    expect(new Set(receiver.requests.map((r) => r.headers["webhook-id"]))).toEqual(new Set([webhookId]));
    for (const r of receiver.requests) {
      expect(() =>
        new Webhook(secret).verify(r.body, {
          "webhook-id": String(r.headers["webhook-id"]),
          "webhook-timestamp": String(r.headers["webhook-timestamp"]),
          "webhook-signature": String(r.headers["webhook-signature"]),
        }),
      ).not.toThrow();
    }
  });

  it("marks the job failed with lastError after maxAttempts", async () => {
    script = [503, 503, 503, 503];
    const { jobId } = await enqueueWebhook(db.prisma, {
      workspaceId,
      url: `${hooks(receiver)}/hook`,
      payload: fileUploadedEvent(uploadResponse),
      maxAttempts: 3,
    });
    await runUntilSettled(newRunner());
    expect(await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({
      status: "failed",
      attempts: 3,
      lastError: "receiver answered HTTP 503",
    });
    expect(receiver.requests).toHaveLength(3);
  });

  it("treats a redirect as a failed attempt and does not follow it", async () => {
    const redirecting = await startTestServer((_req, res) => {
      res.writeHead(301, { location: `${receiver.origin}/elsewhere` }).end();
    });
    try {
      const { jobId } = await enqueueWebhook(db.prisma, {
        workspaceId,
        url: `${hooks(redirecting)}/hook`,
        payload: fileUploadedEvent(uploadResponse),
        maxAttempts: 1,
      });
      await newRunner().runOnce();
      const row = await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
      expect(row.status).toBe("failed");
      expect(row.lastError).toMatch(/redirect/);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await redirecting.close();
    }
  });

  it("times out a receiver that never answers and retries later", async () => {
    const silent = await startTestServer(() => {});
    try {
      const { jobId } = await enqueueWebhook(db.prisma, {
        workspaceId,
        url: `${hooks(silent)}/hook`,
        payload: fileUploadedEvent(uploadResponse),
      });
      await newRunner({}, handlerOptions({ timeoutMs: 200 })).runOnce();
      const row = await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
      expect(row).toMatchObject({ status: "pending", attempts: 1 });
      expect(row.lastError).toMatch(/did not answer within 200 ms/);
    } finally {
      await silent.close();
    }
  });

  it("two runners on the same database never deliver a job twice", async () => {
    const count = 24;
    for (let i = 0; i < count; i++) {
      await enqueueWebhook(db.prisma, {
        workspaceId,
        url: `${hooks(receiver)}/hook?n=${i}`,
        payload: fileUploadedEvent({ ...uploadResponse, file_no: String(i) }),
      });
    }
    // A generous receiver timeout: a delivery that times out is retried by design (at least once),
    // and on a loaded machine PGlite's queries can stall this process's event loop past 2 s. Only a
    // double claim may produce a second request here.
    const patient = handlerOptions({ timeoutMs: 60_000 });
    const a = newRunner({ workerId: "instance-a", pollIntervalMs: 2, batchSize: 3 }, patient);
    const b = newRunner({ workerId: "instance-b", pollIntervalMs: 2, batchSize: 3 }, patient);
    a.start();
    b.start();
    for (let i = 0; i < 500; i++) {
      if ((await db.prisma.job.count({ where: { status: "succeeded" } })) === count) break;
      await sleep(10);
    }
    await Promise.all([a.stop(), b.stop()]);
    expect(await db.prisma.job.count({ where: { status: "succeeded" } })).toBe(count);
    expect(receiver.requests).toHaveLength(count);
    const ids = receiver.requests.map((r) => r.headers["webhook-id"]);
    expect(new Set(ids).size).toBe(count);
    expect(new Set(receiver.requests.map((r) => r.url)).size).toBe(count);
    // Both instances took part (they alternate claims through the shared table).
    const rows = await db.prisma.job.findMany({ select: { lockedBy: true, attempts: true } });
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
  });

  it("refuses a webhook URL resolving to a private address: failed, no connection attempted", async () => {
    const connect = refusingConnector();
    const lookup = tableLookup({ "private.example": "10.0.0.1" });
    const { jobId } = await enqueueWebhook(db.prisma, {
      workspaceId,
      url: "http://private.example/hook",
      payload: fileUploadedEvent(uploadResponse),
    });
    await newRunner({}, handlerOptions({ connect, lookup })).runOnce();
    const row = await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
    expect(row.lastError).toMatch(/^webhook_url resolves to a private or loopback address/);
    expect(row.lastError).toContain("10.0.0.1");
    expect(lookup.calls).toEqual(["private.example"]);
    expect(connect.calls).toEqual([]);
  });

  it("refuses loopback receivers when loopback is not trusted", async () => {
    const connect = loopbackOnlyConnector();
    const { jobId } = await enqueueWebhook(db.prisma, {
      workspaceId,
      url: "http://hooks.localhost:1/hook",
      payload: fileUploadedEvent(uploadResponse),
    });
    await newRunner({}, handlerOptions({ connect, trustedRanges: [] })).runOnce();
    expect((await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("failed");
    expect(connect.calls).toEqual([]);
    expect(receiver.connections).toBe(0);
  });

  it("fails for good when the workspace has no secret any more", async () => {
    const { jobId } = await enqueueWebhook(db.prisma, {
      workspaceId: "01900000-0000-7000-8000-000000000000",
      url: `${hooks(receiver)}/hook`,
      payload: fileUploadedEvent(uploadResponse),
    });
    await newRunner().runOnce();
    const row = await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(row.status).toBe("failed");
    expect(row.lastError).toMatch(/no webhook secret/);
    expect(receiver.requests).toHaveLength(0);
  });
});

describe("enqueueWebhook validation (before any row is written)", () => {
  it.each([
    "http://10.0.0.1/hook",
    "http://[::1]/hook",
    "http://2130706433/hook",
    "http://169.254.169.254/latest",
    "ftp://example.com/hook",
    "http://user:pw@example.com/hook",
    "nope",
  ])("refuses %s", async (url) => {
    const error = await enqueueWebhook(db.prisma, { workspaceId, url, payload: fileUploadedEvent({}) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RemoteFetchError);
    expect(error).toMatchObject({ code: "REMOTE_URL_FORBIDDEN", status: 400 });
    expect((error as Error).message).toMatch(/^webhook_url /);
    expect(await db.prisma.job.count()).toBe(0);
  });

  it("accepts a trusted literal when told the trusted ranges, and stores the documented payload", async () => {
    const { jobId, webhookId } = await enqueueWebhook(db.prisma, {
      workspaceId,
      url: "http://127.0.0.1:9/hook",
      payload: fileUploadedEvent({ a: 1 }, new Date("2026-01-01T00:00:00Z")),
      trustedRanges: TRUST,
    });
    const row = await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(row.payload as unknown as WebhookJobPayload).toEqual({
      workspaceId,
      url: "http://127.0.0.1:9/hook",
      webhookId,
      event: { type: "file.uploaded", timestamp: "2026-01-01T00:00:00.000Z", data: { a: 1 } },
    });
  });

  it("refuses a payload that is not JSON", async () => {
    await expect(
      enqueueWebhook(db.prisma, {
        workspaceId,
        url: "https://example.com/h",
        payload: fileUploadedEvent({ n: 1n }),
      }),
    ).rejects.toThrow(TypeError);
  });
});

describe("signWebhook / deliverWebhook", () => {
  it("signs exactly what standardwebhooks expects", () => {
    const headers = signWebhook({
      secrets: [secret],
      webhookId: "msg_1",
      body: '{"a":1}',
      timestamp: new Date(),
    });
    expect(new Webhook(secret).verify('{"a":1}', { ...headers })).toEqual({ a: 1 });
    expect(generateWebhookSecret()).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });

  it("derives a one-off URL's key by the documented rule, one key per URL and secret", () => {
    const url = "https://example.com/hook?x=1";
    // apps/server/README.md, Webhooks: what a receiver of a one-off URL computes.
    const documented = `whsec_${createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
      .update(`trove.one-off-webhook.v1:${new URL(url).href}`)
      .digest("base64")}`;
    expect(oneOffWebhookSecret(secret, url)).toBe(documented);
    expect(oneOffWebhookSecret(secret, url)).not.toBe(secret);
    expect(oneOffWebhookSecret(secret, `${url}&y`)).not.toBe(documented);
    expect(oneOffWebhookSecret(generateWebhookSecret(), url)).not.toBe(documented);
  });

  it("signs a public credential's URL under the derived keys (both during a rotation), never the secrets", async () => {
    const previous = generateWebhookSecret();
    const both = handlerOptions({ resolveSecrets: async () => [secret, previous] });
    const url = `${hooks(receiver)}/rotating`;
    const payload = fileUploadedEvent(uploadResponse);
    await enqueueWebhook(db.prisma, { workspaceId, url, payload, signWithUrlKey: true });
    await newRunner({}, both).runOnce();
    const [request] = receiver.requests;
    const headers = {
      "webhook-id": String(request?.headers["webhook-id"]),
      "webhook-timestamp": String(request?.headers["webhook-timestamp"]),
      "webhook-signature": String(request?.headers["webhook-signature"]),
    };
    for (const key of [secret, previous]) {
      expect(() =>
        new Webhook(oneOffWebhookSecret(key, url)).verify(request?.body ?? "", headers),
      ).not.toThrow();
      expect(() => new Webhook(key).verify(request?.body ?? "", headers)).toThrow();
    }
  });

  it("deliverWebhook reports the receiver's status", async () => {
    script = [418];
    const result = await deliverWebhook(
      { url: `${hooks(receiver)}/x`, webhookId: "msg_2", event: fileUploadedEvent({}), secrets: [secret] },
      {
        trustedRanges: TRUST,
        connect: loopbackOnlyConnector(),
        lookup: tableLookup({ "hooks.localhost": "127.0.0.1" }),
      },
    );
    expect(result).toEqual({ status: 418, ok: false });
  });
});
