// `transform` and `webhook_url` on multipart start (issue #35): a one-part session carries what a
// direct upload carries, so a browser can send every file through part URLs. Judged at start as a
// direct upload judges them (nothing stored, no session, no token count spent on a refusal), kept
// on the session and handed to registration at complete. The webhook receiver runs on 127.0.0.1
// (trusted through trustedRanges); every outbound dial goes through a loopback-only connector
// that records it, and no name reaches the system resolver.
import { uploadErrorSchema, uploadResponseSchema, uploadTokenResponseSchema } from "@trove/schema";
import type { LightMyRequestResponse } from "fastify";
import sharp from "sharp";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSecret } from "../src/crypto/secret-box.js";
import { WEBHOOK_SECRET_PURPOSE } from "../src/keys/workspaces.js";
import { setStrictTransforms } from "../src/transforms/named-transforms.js";
import { STRICT_STORE_TIME_MESSAGE } from "../src/uploads/store-time-transform.js";
import { complete, pathOf, start, startRaw, uploadAll } from "./multipart-helpers.js";
import { createTestApp, type TestApp } from "./support/index.js";
import {
  forbidSystemDnsInThisFile,
  loopbackOnlyConnector,
  startTestServer,
  type TestServer,
  tableLookup,
} from "./support/network-doubles.js";
import { pattern } from "./support/test-images.js";
import { directUpload, leavesNothing, waitFor } from "./uploads-helpers.js";

let receiver: TestServer;
let t: TestApp;
let connector: ReturnType<typeof loopbackOnlyConnector>;
let lookup: ReturnType<typeof tableLookup>;
/** A 120×80 PNG of a few KiB. */
let png: Buffer;

forbidSystemDnsInThisFile();

beforeAll(async () => {
  png = await pattern(120, 80);
  receiver = await startTestServer((_req, res) => res.writeHead(204).end());
  connector = loopbackOnlyConnector();
  lookup = tableLookup({});
  t = await createTestApp({
    config: {
      trustedRanges: "127.0.0.0/8",
      workers: true,
      jobPollIntervalMs: 50,
      outbound: { lookup, connect: connector },
    },
  });
});

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const pngStart = (extra: Record<string, unknown> = {}) => ({
  file_name: "wide.png",
  size: png.length,
  format: "image/png",
  ...extra,
});

/** Starts, uploads `png` and completes a session of `body`. */
async function uploadPng(body: Record<string, unknown>) {
  const session = await start(t, pngStart(body));
  expect(session.parts).toHaveLength(1);
  await uploadAll(t, session, png);
  return { session, done: await complete(t, session.session_id) };
}

/** A refused start: nothing stored, no session, no file. */
async function refusedStart(body: Record<string, unknown>, key?: string): Promise<LightMyRequestResponse> {
  let res: LightMyRequestResponse | undefined;
  const sessions = await t.app.db.multipartSession.count();
  await leavesNothing(t, async () => {
    res = await startRaw(t, pngStart(body), key);
  });
  expect(await t.app.db.multipartSession.count()).toBe(sessions);
  return res as LightMyRequestResponse;
}

describe("a one-part session with transform and webhook_url", () => {
  it("applies transform w_50 to the assembled PNG: the record and the stored bytes are 50 px wide", async () => {
    const { session, done } = await uploadPng({ transform: "w_50" });
    const row = await t.app.db.multipartSession.findUniqueOrThrow({ where: { id: session.session_id } });
    expect(row.transform).toBe("w_50");
    expect(done.width).toBe(50);
    const file = await t.app.db.file.findUniqueOrThrow({ where: { id: done.id } });
    expect(file.width).toBe(50);
    const delivered = await t.app.inject({ method: "GET", url: pathOf(done.url) });
    expect(delivered.statusCode).toBe(200);
    const meta = await sharp(delivered.rawPayload).metadata();
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 50, height: 33 });
    expect(delivered.rawPayload.length).toBe(done.file_size);
  });

  it("sends the signed file.uploaded delivery to webhook_url after complete", async () => {
    const url = `${receiver.origin}/hooks/multipart`;
    const { session, done } = await uploadPng({ webhook_url: url, transform: "w_60" });
    const row = await t.app.db.multipartSession.findUniqueOrThrow({ where: { id: session.session_id } });
    expect(row.webhookUrl).toBe(url);
    const request = await waitFor(() => receiver.requests.find((r) => r.url === "/hooks/multipart"));
    const secret = openSecret(t.config.secretKey, WEBHOOK_SECRET_PURPOSE, t.workspace.webhookSecret);
    const event = new Webhook(secret).verify(request.body, {
      "webhook-id": String(request.headers["webhook-id"]),
      "webhook-timestamp": String(request.headers["webhook-timestamp"]),
      "webhook-signature": String(request.headers["webhook-signature"]),
    }) as { type: string; data: unknown };
    expect(event.type).toBe("file.uploaded");
    expect(uploadResponseSchema.parse(event.data)).toMatchObject({
      id: done.id,
      file_no: done.file_no,
      width: 60,
    });
    expect(connector.calls.map((call) => call.hostname)).toEqual(["127.0.0.1"]);
  });

  it("behaves as before without them: nothing kept on the session, no webhook job", async () => {
    const jobs = await t.app.db.job.count({ where: { kind: "webhook" } });
    const { session, done } = await uploadPng({});
    const row = await t.app.db.multipartSession.findUniqueOrThrow({ where: { id: session.session_id } });
    expect({ transform: row.transform, webhookUrl: row.webhookUrl }).toEqual({
      transform: null,
      webhookUrl: null,
    });
    expect(done.width).toBe(120);
    expect(await t.app.db.job.count({ where: { kind: "webhook" } })).toBe(jobs);
  });
});

describe("refused at start, as a direct upload refuses them", () => {
  it("an unparsable transform: 400 with direct upload's message, nothing stored", async () => {
    const res = await refusedStart({ transform: "q_200" });
    expect(res.statusCode).toBe(400);
    const direct = await directUpload(t, { file_name: "a.png", transform: "q_200" }, { content: png });
    const { errorCode, message } = uploadErrorSchema.parse(direct.json());
    expect(errorCode).toBe("INVALID_TRANSFORM");
    expect(res.json()).toEqual({ success: false, error: message });
  });

  it("a transform under a token with allow_transforms false: 403 TRANSFORM_NOT_ALLOWED, no count spent", async () => {
    const minted = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads/tokens",
      headers: { "x-api-key": t.keys.private },
      payload: { allow_transforms: false, max_files: 1 },
    });
    const { token } = uploadTokenResponseSchema.parse(minted.json());
    const res = await refusedStart({ transform: "w_10" }, token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, errorCode: "TRANSFORM_NOT_ALLOWED" });
    const row = await t.app.db.uploadToken.findFirstOrThrow({ where: { prefix: token.slice(0, 17) } });
    expect(row.usedFiles).toBe(0);
    // The token's one file is still there to make, without a transform.
    const session = await start(t, pngStart(), token);
    await uploadAll(t, session, png);
    expect((await complete(t, session.session_id, token)).width).toBe(120);
  });

  it("a public key's transform in a strict workspace: 403 with the strict-mode message; a private key's passes", async () => {
    await setStrictTransforms(t.app.db, t.workspace.id, true);
    try {
      const res = await refusedStart({ transform: "w_20" }, t.keys.public);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        success: false,
        error: STRICT_STORE_TIME_MESSAGE,
        errorCode: "TRANSFORM_NOT_ALLOWED",
      });
      const { done } = await uploadPng({ transform: "w_20" });
      expect(done.width).toBe(20);
    } finally {
      await setStrictTransforms(t.app.db, t.workspace.id, false);
    }
  });

  it("a webhook_url to a private address: 400 with direct upload's message, never dialled", async () => {
    const dialled = connector.calls.length;
    for (const webhook_url of ["http://10.0.0.1/hook", "http://[fd00::1]/hook"]) {
      const res = await refusedStart({ webhook_url });
      expect(res.statusCode, webhook_url).toBe(400);
      const direct = await directUpload(t, { file_name: "a.png", webhook_url }, { content: png });
      const { errorCode, message } = uploadErrorSchema.parse(direct.json());
      expect(errorCode).toBe("REMOTE_URL_FORBIDDEN");
      expect(res.json()).toEqual({ success: false, error: message });
    }
    expect(connector.calls.length).toBe(dialled);
    expect(lookup.calls).toEqual([]);
  });

  it("a webhook_url that is not http(s): 400 naming the field", async () => {
    const res = await refusedStart({ webhook_url: "ftp://127.0.0.1/hook" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: expect.stringMatching(/^webhook_url: /) });
  });
});
