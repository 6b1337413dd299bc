// webhook_url on direct and remote uploads: a signed `file.uploaded` delivery to a receiver this
// test starts on 127.0.0.1 (trusted through TROVE_TRUSTED_RANGES), verified with standardwebhooks
// (the workspace secret for a private key's upload, the key derived for the URL for a public
// key's); the job runner started with the app (config.workers) sends it, never delaying the upload.
import { uploadResponseSchema } from "@trove/schema";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSecret } from "../src/crypto/secret-box.js";
import { createJobRunner } from "../src/jobs/start-workers.js";
import { WEBHOOK_SECRET_PURPOSE } from "../src/keys/workspaces.js";
import { oneOffWebhookSecret } from "../src/webhooks/signing.js";
import { signingSecrets } from "../src/webhooks/workspace-secrets.js";
import { createTestApp, type TestApp } from "./support/index.js";
import {
  forbidSystemDns,
  refusingConnector,
  startTestServer,
  type TestServer,
  tableLookup,
} from "./support/network-doubles.js";
import { solid } from "./support/test-images.js";
import { directUpload, remoteUpload, uploaded, waitFor } from "./uploads-helpers.js";

let restoreDns: () => void = () => {};
let receiver: TestServer;
let png: Buffer;
/** What the receiver answers; a handler may also hold the response back. */
let answer: (res: import("node:http").ServerResponse) => void = (res) => res.writeHead(204).end();

beforeAll(async () => {
  restoreDns = forbidSystemDns();
  png = await solid(40, 30, { r: 9, g: 9, b: 9 }, "png");
  receiver = await startTestServer((req, res) => {
    if (req.url?.startsWith("/image.png")) {
      res.writeHead(200, { "content-type": "image/png" }).end(png);
      return;
    }
    answer(res);
  });
});
afterAll(async () => {
  await receiver?.close();
  restoreDns();
});

function hooks() {
  return receiver.requests.filter((r) => r.url.startsWith("/hooks/"));
}

describe("webhooks with the job runner started by the app", () => {
  let t: TestApp;
  let secret: string;
  beforeAll(async () => {
    t = await createTestApp({
      config: { trustedRanges: "127.0.0.0/8", workers: true, jobPollIntervalMs: 50 },
    });
    secret = openSecret(t.config.secretKey, WEBHOOK_SECRET_PURPOSE, t.workspace.webhookSecret);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("starts a runner with the app", () => {
    expect(t.app.jobRunner).not.toBeNull();
  });

  it("delivers a signed file.uploaded event after a direct upload", async () => {
    const url = `${receiver.origin}/hooks/direct`;
    const body = uploaded(
      await directUpload(t, { file_name: "hooked.png", webhook_url: url }, { content: png }),
    );
    const request = await waitFor(() => hooks().find((r) => r.url === "/hooks/direct"));
    expect(request.method).toBe("POST");
    expect(request.headers["content-type"]).toBe("application/json");
    const headers = {
      "webhook-id": String(request.headers["webhook-id"]),
      "webhook-timestamp": String(request.headers["webhook-timestamp"]),
      "webhook-signature": String(request.headers["webhook-signature"]),
    };
    const event = new Webhook(secret).verify(request.body, headers) as {
      type: string;
      timestamp: string;
      data: unknown;
    };
    expect(event.type).toBe("file.uploaded");
    expect(Date.parse(event.timestamp)).not.toBeNaN();
    expect(uploadResponseSchema.parse(event.data)).toEqual(body);
    // A tampered body or another secret does not verify.
    expect(() => new Webhook(secret).verify(request.body.replace("hooked", "hacked"), headers)).toThrow();
    const other = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
    expect(() => new Webhook(other).verify(request.body, headers)).toThrow();
    // The job is recorded as delivered.
    await waitFor(async () => {
      const job = await t.app.db.job.findFirst({
        where: { kind: "webhook" },
        orderBy: { createdAt: "desc" },
      });
      return job?.status === "succeeded" ? job : undefined;
    });
  });

  it("signs a public key's or a token's webhook_url with the URL's key, which the workspace secret refuses", async () => {
    const minted = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads/tokens",
      headers: { "x-api-key": t.keys.private },
      payload: {},
    });
    for (const [name, key] of [
      ["public", t.keys.public],
      ["token", minted.json().token as string],
    ] as const) {
      const url = `${receiver.origin}/hooks/${name}`;
      uploaded(
        await directUpload(t, { file_name: `${name}.png`, webhook_url: url }, { content: png }, { key }),
      );
      const request = await waitFor(() => hooks().find((r) => r.url === `/hooks/${name}`));
      const headers = {
        "webhook-id": String(request.headers["webhook-id"]),
        "webhook-timestamp": String(request.headers["webhook-timestamp"]),
        "webhook-signature": String(request.headers["webhook-signature"]),
      };
      // Replayed to the workspace's own endpoints it would not pass (issue #30); nor for another URL.
      expect(() => new Webhook(secret).verify(request.body, headers)).toThrow();
      expect(() =>
        new Webhook(oneOffWebhookSecret(secret, `${url}x`)).verify(request.body, headers),
      ).toThrow();
      expect(new Webhook(oneOffWebhookSecret(secret, url)).verify(request.body, headers)).toMatchObject({
        type: "file.uploaded",
      });
    }
  });

  it("delivers after a remote-URL upload too", async () => {
    const body = uploaded(
      await remoteUpload(t, {
        remote_url: `${receiver.origin}/image.png`,
        webhook_url: `${receiver.origin}/hooks/remote`,
      }),
    );
    const request = await waitFor(() => hooks().find((r) => r.url === "/hooks/remote"));
    const event = JSON.parse(request.body) as { data: { id: string; upload_source: string } };
    expect(event.data).toMatchObject({ id: body.id, upload_source: "remote" });
  });

  it("never delays the upload: a receiver that does not answer does not hold the response", async () => {
    const held: Array<import("node:http").ServerResponse> = [];
    answer = (res) => held.push(res);
    try {
      const started = Date.now();
      const res = await directUpload(
        t,
        { file_name: "slow.png", webhook_url: `${receiver.origin}/hooks/slow` },
        { content: png },
      );
      expect(res.statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(5_000);
      await waitFor(() => hooks().find((r) => r.url === "/hooks/slow"));
    } finally {
      answer = (res) => res.writeHead(204).end();
      for (const res of held) res.writeHead(204).end();
    }
  });
});

describe("webhooks without workers", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: {
        trustedRanges: "127.0.0.0/8",
        outbound: { lookup: tableLookup({ "hooks.internal": "10.0.0.7" }), connect: refusingConnector() },
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("leaves the job queued when workers are off (the default in tests)", async () => {
    expect(t.app.jobRunner).toBeNull();
    const body = uploaded(
      await directUpload(
        t,
        { file_name: "queued.png", webhook_url: `${receiver.origin}/hooks/queued` },
        { content: png },
      ),
    );
    const job = await t.app.db.job.findFirstOrThrow({ where: { kind: "webhook" } });
    expect(job.status).toBe("pending");
    expect((job.payload as { event: { data: { id: string } } }).event.data.id).toBe(body.id);
    expect(hooks().some((r) => r.url === "/hooks/queued")).toBe(false);
  });

  it("refuses a private IP-literal webhook_url up front: 400, nothing stored, no job", async () => {
    const jobs = await t.app.db.job.count();
    const files = await t.app.db.file.count();
    const res = await directUpload(
      t,
      { file_name: "x.png", webhook_url: "http://10.0.0.1/hook" },
      { content: png },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, errorCode: "REMOTE_URL_FORBIDDEN" });
    const remote = await remoteUpload(t, {
      remote_url: `${receiver.origin}/image.png`,
      webhook_url: "http://[fd00::1]/hook",
    });
    expect(remote.statusCode).toBe(400);
    expect(await t.app.db.job.count()).toBe(jobs);
    expect(await t.app.db.file.count()).toBe(files);
  });

  it("fails a delivery whose host name resolves privately, without connecting", async () => {
    const connect = t.config.outbound?.connect as ReturnType<typeof refusingConnector>;
    await t.app.db.job.deleteMany({});
    uploaded(
      await directUpload(
        t,
        { file_name: "named.png", webhook_url: "http://hooks.internal/h" },
        { content: png },
      ),
    );
    await t.app.db.job.updateMany({
      where: { kind: "webhook", status: "pending" },
      data: { runAt: new Date(0) },
    });
    const runner = createJobRunner(t.app);
    await runner.runOnce();
    const job = await t.app.db.job.findFirstOrThrow({
      where: { kind: "webhook", payload: { path: ["url"], equals: "http://hooks.internal/h" } },
    });
    expect(job.status).toBe("failed");
    expect(job.lastError).toMatch(/private|loopback/);
    expect(connect.calls).toEqual([]);
  });

  it("decrypts the workspace's sealed secret for signing", async () => {
    const secrets = await signingSecrets(t.app.db, t.config.secretKey, t.workspace.id);
    expect(secrets).toEqual([expect.stringMatching(/^whsec_/)]);
    expect(t.workspace.webhookSecret).not.toContain(secrets[0]);
    expect(
      await signingSecrets(t.app.db, t.config.secretKey, "00000000-0000-7000-8000-000000000000"),
    ).toEqual([]);
  });
});
