/**
 * Security (issue #30): what a public credential (an upload token, the public key) can make the
 * upload path do, against a real `trove-server` process over loopback HTTP:
 * - a token limited to 20,000 bytes sends a small JPEG with a store-time w_2000,h_2000,c_fill,fl_upscale:
 *   the output is judged like the upload, 413, and nothing is stored or spent;
 * - a policy with `allow_transforms: false` refuses any store-time transform;
 * - in a strict workspace the public key may not transform at store time at all;
 * - the public key uploads the bytes of a private file and learns nothing (`is_duplicate` false);
 * - a one-off `webhook_url` named by the public key gets a message that does not verify with the
 *   workspace secret, so it cannot be replayed to the workspace's own receivers.
 * The webhook receiver is a server this file starts on 127.0.0.1 (TROVE_TRUSTED_RANGES 127.0.0.0/8).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradientPng } from "../support/png";
import { api } from "../support/reliability-profile";
import { storedObjects as storedObjectsOf } from "../support/stored-objects.js";
import { uploadRecord } from "../support/upload-record.js";

const ADMIN_TOKEN = "upload-policy-admin-token-0123456789abcdef";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let server: ServerProcess;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let workspaceNo: string;
/** A small JPEG, made by the server itself from a PNG (e2e has no image library). */
let jpeg: Uint8Array;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  server = await startServerProcess({ TROVE_TRUSTED_RANGES: "127.0.0.0/8", TROVE_ADMIN_TOKEN: ADMIN_TOKEN });

  const made = await upload(
    server.keys.private,
    { file_name: "seed.png", transform: "f_jpg" },
    gradientPng(64, 48),
  );
  expect(made.status).toBe(200);
  // The wrapped body's record carries `workspace_no`, which the admin API addresses.
  workspaceNo = String(made.body.workspace_no);
  const served = await fetch(String(made.body.url));
  expect(served.headers.get("content-type")).toBe("image/jpeg");
  jpeg = new Uint8Array(await served.arrayBuffer());
});

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

async function upload(key: string, fields: Record<string, string>, content: Uint8Array = jpeg) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("file", new Blob([content as BlobPart]), fields.file_name ?? "f");
  const response = await fetch(`${server.baseUrl}/api/v1/uploads`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  return { status: response.status, body: uploadRecord(await response.json()) };
}

async function admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.baseUrl}/admin/v1/workspaces/${workspaceNo}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  const parsed = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  return (parsed.data as Record<string, unknown> | undefined) ?? parsed;
}

async function mint(body: Record<string, unknown>): Promise<string> {
  const res = await api(server.baseUrl, server.keys.private, "POST", "/api/v1/uploads/tokens", body);
  expect(res.status, res.text).toBe(200);
  return (res.body as { token: string }).token;
}

function storedObjects(): Promise<string[]> {
  return storedObjectsOf(server.dataDir);
}

async function fileCount(): Promise<number> {
  const res = await api(server.baseUrl, server.keys.private, "GET", "/api/v1/files?limit=100");
  expect(res.status, res.text).toBe(200);
  return (res.body as unknown[]).length;
}

/** Runs `attack`, then checks that it left no file and no object behind. */
async function leavesNothing(attack: () => Promise<void>): Promise<void> {
  const [objects, files] = await Promise.all([storedObjects(), fileCount()]);
  await attack();
  expect(await storedObjects()).toEqual(objects);
  expect(await fileCount()).toBe(files);
}

/**
 * Standard Webhooks verification (what `standardwebhooks` does), written out: e2e has no webhook
 * library. True when any `v1,` signature of the header is the HMAC of `id.timestamp.body`.
 */
function verifies(secret: string, message: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const signed = `${message.headers["webhook-id"]}.${message.headers["webhook-timestamp"]}.${message.body}`;
  const expected = createHmac("sha256", key).update(signed).digest();
  return String(message.headers["webhook-signature"])
    .split(" ")
    .some((candidate) => {
      const given = Buffer.from(candidate.replace(/^v1,/, ""), "base64");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** The key a one-off URL's receiver verifies with (apps/server/README.md, Webhooks). */
function oneOffKey(secret: string, url: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const derived = createHmac("sha256", key).update(`trove.one-off-webhook.v1:${new URL(url).href}`);
  return `whsec_${derived.digest("base64")}`;
}

describe("store-time transforms of public credentials", () => {
  it("a 20,000-byte token cannot store a 2000×2000 rendition of a small JPEG: 413, nothing stored", async () => {
    expect(jpeg.length).toBeLessThan(20_000);
    const token = await mint({ max_file_size: 20_000, max_files: 1 });
    await leavesNothing(async () => {
      for (const transform of ["w_2000,h_2000,c_fill,fl_upscale", "w_4000,h_4000,fl_upscale"]) {
        const res = await upload(token, { file_name: "big.jpg", transform });
        expect(res.status, JSON.stringify(res.body)).toBe(413);
        expect(res.body).toMatchObject({ success: false, errorCode: "FILE_TOO_LARGE" });
      }
    });
    // Nothing was spent: the token's one file can still be made within the cap.
    const small = await upload(token, { file_name: "small.jpg", transform: "w_32" });
    expect(small.status, JSON.stringify(small.body)).toBe(200);
    expect(Number(small.body.size)).toBeLessThanOrEqual(20_000);
  });

  it("a policy with allow_transforms: false refuses any store-time transform with 403", async () => {
    const token = await mint({ allow_transforms: false });
    await leavesNothing(async () => {
      const res = await upload(token, { file_name: "t.jpg", transform: "w_10" });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, errorCode: "TRANSFORM_NOT_ALLOWED" });
    });
    expect((await upload(token, { file_name: "t.jpg" })).status).toBe(200);
  });

  it("a strict workspace refuses the public key's store-time transforms", async () => {
    await admin("PATCH", "", { strict_transforms: true });
    try {
      await leavesNothing(async () => {
        const res = await upload(server.keys.public, {
          file_name: "s.jpg",
          transform: "w_2000,h_2000,c_fill,fl_upscale",
        });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ success: false, errorCode: "TRANSFORM_NOT_ALLOWED" });
      });
      const privately = await upload(server.keys.private, { file_name: "p.jpg", transform: "w_24" });
      expect(privately.status, JSON.stringify(privately.body)).toBe(200);
    } finally {
      await admin("PATCH", "", { strict_transforms: false });
    }
  });
});

describe("what a public key learns", () => {
  it("is_duplicate is false for the public key's copy of a private file, true for the private key's", async () => {
    const privateBytes = gradientPng(33, 17);
    const original = await upload(
      server.keys.private,
      { file_name: "secret.png", is_private: "true" },
      privateBytes,
    );
    expect(original.status).toBe(200);
    const probe = await upload(server.keys.public, { file_name: "probe.png" }, privateBytes);
    expect(probe.status).toBe(200);
    expect(probe.body.is_duplicate).toBe(false);
    const again = await upload(server.keys.private, { file_name: "again.png" }, privateBytes);
    expect(again.body.is_duplicate).toBe(true);
  });

  it("a one-off webhook_url gets a message the workspace secret does not verify", async () => {
    const { secret } = (await admin("GET", "/webhook-secret")) as { secret: string };
    expect(secret).toMatch(/^whsec_/);
    const url = `${receiverUrl}/one-off?from=public-key`;
    const res = await upload(
      server.keys.public,
      { file_name: "hook.png", webhook_url: url },
      gradientPng(20, 20),
    );
    expect(res.status).toBe(200);

    const deadline = Date.now() + 60_000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const [message] = received;
    if (!message) throw new Error(`no delivery:\n${server.output()}`);
    expect(JSON.parse(message.body)).toMatchObject({ type: "file.uploaded", data: { id: res.body.id } });
    // Replayed to the workspace's own receiver, it would be refused.
    expect(verifies(secret, message)).toBe(false);
    // It is a real signature, under the key derived for this URL, which the owner can compute.
    expect(verifies(oneOffKey(secret, url), message)).toBe(true);
  });
});
