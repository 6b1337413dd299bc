// POST /api/v1/uploads/remote (spec endpoint 2). Every fetch goes to an HTTP server this test starts
// on 127.0.0.1, reachable only because the app trusts 127.0.0.0/8 (TROVE_TRUSTED_RANGES). Refusals
// of non-loopback targets are proven with a table resolver and a connector that never dials
// (test/support/network-doubles.ts); the system resolver is disabled for the whole file.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { uploadErrorSchema } from "@trove/schema";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashStream } from "../src/content-hash/index.js";
import { fetchRemoteUpload, fileNameFromUrl } from "../src/uploads/fetch-remote-upload.js";
import { createTestApp, type TestApp } from "./support/index.js";
import {
  forbidSystemDns,
  loopbackOnlyConnector,
  refusingConnector,
  startTestServer,
  type TestServer,
  tableLookup,
} from "./support/network-doubles.js";
import { solid } from "./support/test-images.js";
import {
  directUpload,
  listObjects,
  multipartBody,
  pathOf,
  remoteUpload,
  uploaded,
} from "./uploads-helpers.js";

let restoreDns: () => void = () => {};
let server: TestServer;
let png: Buffer;
let t: TestApp;

type Route = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Route>();

beforeAll(async () => {
  restoreDns = forbidSystemDns();
  png = await solid(320, 200, { r: 0, g: 200, b: 100 }, "png");
  server = await startTestServer((req, res) => {
    const route = routes.get((req.url ?? "").split("?")[0] ?? "");
    if (route) return route(req, res);
    res.writeHead(404, { "content-type": "text/plain" }).end("not here");
  });
  routes.set("/images/cat.png", (_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(png));
  routes.set("/", (_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(png));
  routes.set("/files/r%C3%A9sum%C3%A9%20final.png", (_req, res) => res.writeHead(200).end(png));
  routes.set("/claims-jpeg", (_req, res) => res.writeHead(200, { "content-type": "image/jpeg" }).end(png));
  routes.set("/empty", (_req, res) => res.writeHead(200, { "content-type": "image/png" }).end());
  routes.set("/boom", (_req, res) => res.writeHead(500).end("upstream broke"));
  routes.set("/hop", (_req, res) => res.writeHead(302, { location: "/images/cat.png" }).end());
  routes.set("/to-private", (_req, res) => res.writeHead(302, { location: "http://10.0.0.1/secret" }).end());
  routes.set("/to-metadata", (_req, res) =>
    res.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end(),
  );
  routes.set("/to-name", (_req, res) => res.writeHead(307, { location: "http://internal.example/x" }).end());
  routes.set("/loop", (_req, res) => res.writeHead(302, { location: "/loop" }).end());
  routes.set("/big", (_req, res) => res.writeHead(200, { "content-length": "5000" }).end(randomBytes(5000)));
  routes.set("/big-chunked", (_req, res) => {
    res.writeHead(200, { "content-type": "application/octet-stream" });
    for (let i = 0; i < 5; i++) res.write(randomBytes(1000));
    res.end();
  });
  t = await createTestApp({ config: { trustedRanges: "127.0.0.0/8" } });
});

afterAll(async () => {
  await t?.close();
  await server?.close();
  restoreDns();
});

function expectUploadError(res: { statusCode: number; json(): unknown }, status: number, errorCode: string) {
  expect(res.statusCode).toBe(status);
  const body = uploadErrorSchema.parse(res.json());
  expect(body.errorCode).toBe(errorCode);
  return body;
}

describe("remote upload from a loopback server (trusted range)", () => {
  it("fetches, stores and describes the file; every field applies", async () => {
    const remote_url = `${server.origin}/images/cat.png`;
    const res = await remoteUpload(t, {
      remote_url,
      folder: "remote/2024",
      tags: ["web", "cats"],
      metadata: JSON.stringify({ source: "test" }),
      custom_id: "r-1",
    });
    const body = uploaded(res);
    expect(body).toMatchObject({
      name: "cat.png",
      path: "remote/2024/cat.png",
      width: 320,
      height: 200,
      size: png.length,
      mime_type: "image/png",
      format: "png",
      tags: ["web", "cats"],
      metadata: { source: "test" },
      custom_id: "r-1",
      upload_source: "remote",
      is_duplicate: false,
    });
    expect(body.thumbnail).not.toBeNull();
    const row = await t.app.db.file.findUniqueOrThrow({ where: { id: body.id } });
    expect(row.originalUrl).toBe(remote_url);
    const served = await t.app.inject({ method: "GET", url: pathOf(body.url) });
    expect(Buffer.compare(served.rawPayload, png)).toBe(0);
    // Same hash as a direct upload of the same bytes, which is then a duplicate.
    expect(body.hash).toBe((await hashStream([png])).hash);
    const direct = uploaded(await directUpload(t, { file_name: "same.png" }, { content: png }));
    expect(direct).toMatchObject({ hash: body.hash, is_duplicate: true });
  });

  it("accepts tags as a comma-separated string, metadata as an object, file_name, random_prefix, transform", async () => {
    const body = uploaded(
      await remoteUpload(t, {
        remote_url: `${server.origin}/images/cat.png`,
        file_name: "kitty.png",
        tags: "a, b",
        metadata: { n: 1 },
        random_prefix: "true",
        transform: "w_160,f_avif",
      }),
    );
    expect(body.name).toMatch(/^kitty-[a-z0-9]{8}\.avif$/);
    expect(body).toMatchObject({
      tags: ["a", "b"],
      metadata: { n: 1 },
      width: 160,
      height: 100,
      format: "avif",
    });
    const served = await t.app.inject({ method: "GET", url: pathOf(body.url) });
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ width: 160, height: 100 });
  });

  it("names the file after the URL's last segment (decoded), else `file`", async () => {
    const decoded = uploaded(
      await remoteUpload(t, { remote_url: `${server.origin}/files/r%C3%A9sum%C3%A9%20final.png` }),
    );
    expect(decoded.name).toBe("résumé final.png");
    const bare = uploaded(await remoteUpload(t, { remote_url: `${server.origin}/` }));
    expect(bare.name).toBe("file.png");
    expect(fileNameFromUrl("http://x.test/a/b/")).toBe("b");
    expect(fileNameFromUrl("http://x.test/a/%2e%2e")).toBe("file");
    expect(fileNameFromUrl("http://x.test/a%2Fb")).toBe("file");
  });

  it("sniffs the bytes instead of trusting the upstream Content-Type", async () => {
    const body = uploaded(
      await remoteUpload(t, { remote_url: `${server.origin}/claims-jpeg`, file_name: "x.jpg" }),
    );
    expect(body).toMatchObject({ name: "x.png", mime_type: "image/png" });
  });

  it("follows a same-origin redirect", async () => {
    const body = uploaded(await remoteUpload(t, { remote_url: `${server.origin}/hop` }));
    expect(body).toMatchObject({ name: "hop.png", width: 320 });
  });

  it("accepts a public key", async () => {
    const res = await remoteUpload(t, { remote_url: `${server.origin}/images/cat.png` }, t.keys.public);
    expect(res.statusCode).toBe(200);
  });
});

describe("remote upload: errors", () => {
  let before: string[];
  beforeEach(async () => {
    before = await listObjects(t.storageDir);
  });
  const expectNothingStored = async () => expect(await listObjects(t.storageDir)).toEqual(before);

  it("401 without a key", async () => {
    const res = await remoteUpload(t, { remote_url: `${server.origin}/images/cat.png` }, null);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      success: false,
      error: "Unauthorized",
      errorCode: "UNAUTHORIZED",
      message: "Invalid or missing API key",
    });
  });

  it("400 EMPTY_FILE for an empty remote body; nothing stored", async () => {
    const res = await remoteUpload(t, { remote_url: `${server.origin}/empty` });
    expect(expectUploadError(res, 400, "EMPTY_FILE").message).toBe("File is empty");
    await expectNothingStored();
  });

  it("400 REMOTE_FETCH_FAILED for an upstream 404, 502 for an upstream 500", async () => {
    const missing = await remoteUpload(t, { remote_url: `${server.origin}/nope.png` });
    expectUploadError(missing, 400, "REMOTE_FETCH_FAILED");
    const broken = await remoteUpload(t, { remote_url: `${server.origin}/boom` });
    expectUploadError(broken, 502, "REMOTE_FETCH_FAILED");
    const loop = await remoteUpload(t, { remote_url: `${server.origin}/loop` });
    expect(expectUploadError(loop, 400, "REMOTE_FETCH_FAILED").message).toMatch(/redirect/i);
    await expectNothingStored();
  });

  it("refuses a redirect to a private address, without dialling it", async () => {
    for (const path of ["/to-private", "/to-metadata"]) {
      const res = await remoteUpload(t, { remote_url: `${server.origin}${path}` });
      expectUploadError(res, 400, "REMOTE_URL_FORBIDDEN");
    }
    await expectNothingStored();
  });

  it("400 VALIDATION_FAILED for a missing or non-http remote_url, INVALID_METADATA, INVALID_TRANSFORM", async () => {
    expectUploadError(await remoteUpload(t, {}), 400, "VALIDATION_FAILED");
    expectUploadError(await remoteUpload(t, { remote_url: "file:///etc/passwd" }), 400, "VALIDATION_FAILED");
    expectUploadError(
      await remoteUpload(t, { remote_url: `${server.origin}/images/cat.png`, metadata: "{x" }),
      400,
      "INVALID_METADATA",
    );
    const transform = await remoteUpload(t, {
      remote_url: `${server.origin}/images/cat.png`,
      transform: "h_0",
    });
    expect(expectUploadError(transform, 400, "INVALID_TRANSFORM").message).toContain("h_0");
    expectUploadError(
      await remoteUpload(t, { remote_url: `${server.origin}/images/cat.png`, file_name: "../x.png" }),
      400,
      "VALIDATION_FAILED",
    );
    await expectNothingStored();
  });

  it("415 for a body that is not JSON", async () => {
    const { body, contentType } = await multipartBody([["remote_url", `${server.origin}/images/cat.png`]]);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads/remote",
      headers: { "content-type": contentType, "x-api-key": t.keys.private },
      payload: body,
    });
    expectUploadError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
  });
});

describe("remote upload: size limit", () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ config: { trustedRanges: "127.0.0.0/8", maxUploadBytes: 1000 } });
  });
  afterAll(async () => {
    await small?.close();
  });

  it("refuses a body over the limit (by Content-Length and while streaming), nothing stored", async () => {
    for (const path of ["/big", "/big-chunked"]) {
      const res = await remoteUpload(small, { remote_url: `${server.origin}${path}` });
      expectUploadError(res, 400, "FILE_TOO_LARGE");
    }
    expect(await listObjects(small.storageDir)).toEqual([]);
  });

  it("a body that passes the limit while the quota check waits fails the upload, not the process", async () => {
    // The check before the body (the quota) takes a database round trip; the origin's chunks
    // pass the byte limit meanwhile. Without a listener then, the limit's error was uncaught.
    const fetched = fetchRemoteUpload(`${server.origin}/big-chunked`, "big.bin", {
      storage: small.app.storage,
      workspaceId: small.workspace.id,
      maxBytes: 1000,
      timeoutMs: 10_000,
      trustedRanges: "127.0.0.0/8",
      beforeBody: () => new Promise((resolve) => setTimeout(resolve, 200)),
    });
    await expect(fetched).rejects.toMatchObject({ code: "FILE_TOO_LARGE" });
    expect(await listObjects(small.storageDir)).toEqual([]);
  });
});

describe("remote upload: SSRF guard", () => {
  it("refuses loopback when no range is trusted; the server sees no connection", async () => {
    const strict = await createTestApp();
    try {
      const connectionsBefore = server.connections;
      for (const host of ["127.0.0.1", "[::1]", "0.0.0.0", "2130706433", "0177.0.0.1"]) {
        const res = await remoteUpload(strict, {
          remote_url: `http://${host}:${server.port}/images/cat.png`,
        });
        expectUploadError(res, 400, "REMOTE_URL_FORBIDDEN");
      }
      expect(server.connections).toBe(connectionsBefore);
      expect(await listObjects(strict.storageDir)).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it("refuses a name resolving to 10.0.0.1 and the metadata address; the connector is never called", async () => {
    const lookup = tableLookup({
      "internal.example": "10.0.0.1",
      "mixed.example": ["93.184.216.34", "10.1.2.3"],
    });
    const connect = refusingConnector();
    const guarded = await createTestApp({ config: { outbound: { lookup, connect } } });
    try {
      for (const remote_url of [
        "http://internal.example/file.png",
        "http://mixed.example/file.png",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::ffff:169.254.169.254]/x",
        "http://10.0.0.1/x",
      ]) {
        const res = await remoteUpload(guarded, { remote_url });
        const body = expectUploadError(res, 400, "REMOTE_URL_FORBIDDEN");
        // The resolved address is never echoed to the client.
        expect(body.message).not.toMatch(/10\.0\.0\.1|10\.1\.2\.3/);
      }
      expect(lookup.calls).toEqual(expect.arrayContaining(["internal.example", "mixed.example"]));
      expect(connect.calls).toEqual([]);
      // A redirect from a trusted loopback origin to a name that resolves privately is refused too;
      // this connector dials loopback only, and only the first hop is ever dialled.
      const loopbackOnly = loopbackOnlyConnector();
      const viaRedirect = await createTestApp({
        config: { trustedRanges: "127.0.0.1/32", outbound: { lookup, connect: loopbackOnly } },
      });
      try {
        const res = await remoteUpload(viaRedirect, { remote_url: `${server.origin}/to-name` });
        expectUploadError(res, 400, "REMOTE_URL_FORBIDDEN");
        expect(loopbackOnly.calls.map((call) => call.hostname)).toEqual(["127.0.0.1"]);
      } finally {
        await viaRedirect.close();
      }
    } finally {
      await guarded.close();
    }
  });
});
