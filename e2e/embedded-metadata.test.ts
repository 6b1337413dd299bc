/**
 * Personal metadata removed from stored originals (issue #34 part 1), against the real server over
 * loopback: each upload's stored bytes are downloaded from its delivery URL and read with exifr
 * (apps/server/test/fixtures/embedded-metadata/read-embedded-metadata.ts). The fixtures carry GPS,
 * a serial number, names and comments in EXIF, XMP and IPTC, an ICC profile, and orientation 6.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEmbeddedMetadata } from "../apps/server/test/fixtures/embedded-metadata/read-embedded-metadata";
import { api } from "./support/reliability-profile";
import { uploadRecord } from "./support/upload-record.js";

const OCTETS = { "content-type": "application/octet-stream" };
const ADMIN_TOKEN = "embedded-metadata-admin-token-0123456789abcdef";
const fixture = (name: string) =>
  new Uint8Array(
    readFileSync(new URL(`../apps/server/test/fixtures/embedded-metadata/${name}`, import.meta.url)),
  );

let server: ServerProcess;
let origin: Server;
let originUrl: string;
let workspaceNo: string;

beforeAll(async () => {
  server = await startServerProcess({ TROVE_TRUSTED_RANGES: "127.0.0.0/8", TROVE_ADMIN_TOKEN: ADMIN_TOKEN });
  // The remote-upload origin: serves the fixtures by name, on loopback.
  origin = createServer((request, response) => {
    const name = (request.url ?? "/").slice(1);
    response.writeHead(200, { "content-type": "application/octet-stream" }).end(fixture(name));
  });
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  const listed = (await admin("GET", "/admin/v1/workspaces")) as { workspaces: { workspace_no: string }[] };
  workspaceNo = (listed.workspaces[0] as { workspace_no: string }).workspace_no;
});

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => origin?.close(() => resolve()));
});

async function admin(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return response.json();
}

async function setWorkspace(mode: string | null): Promise<void> {
  const updated = (await admin("PATCH", `/admin/v1/workspaces/${workspaceNo}`, {
    embedded_metadata: mode,
  })) as {
    embedded_metadata: string | null;
  };
  expect(updated.embedded_metadata).toBe(mode);
}

interface Stored {
  status: number;
  record: Record<string, unknown>;
  /** The stored original, as delivery serves it. */
  bytes: Uint8Array;
}

async function stored(status: number, body: unknown): Promise<Stored> {
  let record = uploadRecord(body);
  if (status !== 200) return { status, record, bytes: new Uint8Array() };
  // Multipart complete's record calls it `file_size`.
  if (record.size === undefined) record = { ...record, size: record.file_size };
  const served = await fetch(String(record.url));
  expect(served.status).toBe(200);
  return { status, record, bytes: new Uint8Array(await served.arrayBuffer()) };
}

async function upload(key: string, name: string, fields: Record<string, string> = {}): Promise<Stored> {
  const form = new FormData();
  form.set("file_name", name);
  for (const [field, value] of Object.entries(fields)) form.set(field, value);
  form.set("file", new Blob([fixture(name) as BlobPart]), name);
  const response = await fetch(`${server.baseUrl}/api/v1/uploads`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  return stored(response.status, await response.json());
}

/** The JPEG's entropy-coded data: from the SOS marker to EOI. */
function scanData(jpeg: Uint8Array): Buffer {
  const bytes = Buffer.from(jpeg);
  return bytes.subarray(
    bytes.indexOf(Buffer.from([0xff, 0xda])),
    bytes.lastIndexOf(Buffer.from([0xff, 0xd9])) + 2,
  );
}

async function expectStripped(file: Stored, orientation: number): Promise<void> {
  expect(file.status).toBe(200);
  const after = await readEmbeddedMetadata(file.bytes);
  expect(after.latitude).toBeUndefined();
  for (const secret of [
    "SN-12345",
    "Jane_",
    "Our_home",
    "Secret_comment",
    "Jpeg_comment",
    "Png_comment",
    "Iptc",
  ]) {
    expect(after.text).not.toContain(secret);
  }
  expect(after.iccDescription).toBeDefined();
  expect(after.orientation ?? 1).toBe(orientation);
  // The record describes the bytes stored.
  expect(file.record.size).toBe(file.bytes.length);
}

const CASES = [
  ["gps.jpg", 6],
  ["gps.png", 1],
  ["gps.webp", 6],
  ["gps.tif", 1],
  ["gps.heic", 6],
] as const;

describe("public key uploads are stripped by default", () => {
  it.each(CASES)(
    "%s: no GPS, serial, names or comments in the stored bytes; ICC and orientation kept",
    async (name, orientation) => {
      const file = await upload(server.keys.public, name);
      await expectStripped(file, orientation);
      expect(file.bytes.length).toBeLessThanOrEqual(fixture(name).length);
    },
  );

  it("the JPEG's image data is bit-identical to the original's", async () => {
    const file = await upload(server.keys.public, "gps.jpg");
    expect(scanData(file.bytes).equals(scanData(fixture("gps.jpg")))).toBe(true);
    expect(file.bytes.length).toBeLessThan(fixture("gps.jpg").length);
  });

  it("a public upload asking keep still strips", async () => {
    await expectStripped(await upload(server.keys.public, "gps.jpg", { embedded_metadata: "keep" }), 6);
  });

  it("an embedded_metadata outside the three modes is a 400 naming the field", async () => {
    const file = await upload(server.keys.public, "gps.jpg", { embedded_metadata: "scrub" });
    expect(file.status).toBe(400);
    expect(JSON.stringify(file.record)).toContain("embedded_metadata");
  });
});

describe("private keys, the workspace setting and policies", () => {
  it("a private-key upload keeps its metadata byte for byte", async () => {
    const file = await upload(server.keys.private, "gps.jpg");
    expect(Buffer.from(file.bytes).equals(Buffer.from(fixture("gps.jpg")))).toBe(true);
    expect((await readEmbeddedMetadata(file.bytes)).latitude).toBeCloseTo(48.8583, 3);
  });

  it("size, hash and is_duplicate describe the stripped bytes", async () => {
    const first = await upload(server.keys.private, "gps.png", { embedded_metadata: "strip" });
    await expectStripped(first, 1);
    const second = await upload(server.keys.private, "gps.png", { embedded_metadata: "strip" });
    expect(second.record.is_duplicate).toBe(true);
    // The stripped bytes uploaded as they are (keep) are the same content: same hash.
    const form = new FormData();
    form.set("file_name", "again.png");
    form.set("file", new Blob([first.bytes as BlobPart]), "again.png");
    const response = await fetch(`${server.baseUrl}/api/v1/uploads`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.keys.private}` },
      body: form,
    });
    const again = uploadRecord(await response.json());
    expect(again.is_duplicate).toBe(true);
    expect(again.size).toBe(first.record.size);
  });

  it("the workspace's strip makes private uploads strip; strip-location keeps the artist; default again", async () => {
    try {
      await setWorkspace("strip");
      await expectStripped(await upload(server.keys.private, "gps.jpg"), 6);

      await setWorkspace("strip-location");
      for (const key of [server.keys.private, server.keys.public]) {
        const file = await upload(key, "gps.jpg");
        const after = await readEmbeddedMetadata(file.bytes);
        expect(after.latitude).toBeUndefined();
        expect(after.text).toContain("Jane_Artist");
        expect(after.orientation).toBe(6);
        expect(file.record.size).toBe(file.bytes.length);
      }
    } finally {
      await setWorkspace(null);
    }
    expect(
      (await readEmbeddedMetadata((await upload(server.keys.private, "gps.jpg")).bytes)).latitude,
    ).toBeDefined();
  });

  it("an upload token's policy binds: keep keeps, strip-location drops only GPS, and a token upload may only ask for stricter", async () => {
    const mint = async (embedded_metadata: string) => {
      const res = await api(server.baseUrl, server.keys.private, "POST", "/api/v1/uploads/tokens", {
        embedded_metadata,
        max_files: 10,
      });
      expect(res.status, res.text).toBe(200);
      const body = res.body as { token: string; policy: Record<string, unknown> };
      expect(body.policy.embedded_metadata).toBe(embedded_metadata);
      return body.token;
    };
    const keeping = await mint("keep");
    const kept = await upload(keeping, "gps.jpg");
    expect((await readEmbeddedMetadata(kept.bytes)).latitude).toBeCloseTo(48.8583, 3);
    await expectStripped(await upload(keeping, "gps.jpg", { embedded_metadata: "strip" }), 6);

    const locating = await mint("strip-location");
    const located = await readEmbeddedMetadata(
      (await upload(locating, "gps.jpg", { embedded_metadata: "keep" })).bytes,
    );
    expect(located.latitude).toBeUndefined();
    expect(located.text).toContain("Jane_Artist");
  });
});

describe("delivery variants", () => {
  it("carry no metadata: a kept original's GPS, names and EXIF never reach a variant", async () => {
    const file = await upload(server.keys.private, "gps.jpg", { file_name: "variant-source.jpg" });
    expect((await readEmbeddedMetadata(file.bytes)).latitude).toBeDefined();
    for (const format of ["jpg", "webp", "png", "avif"]) {
      const url = String(file.record.url).replace(
        "/variant-source.jpg",
        `/w_32,f_${format}/variant-source.jpg`,
      );
      const served = await fetch(url);
      expect(served.status, url).toBe(200);
      const variant = await readEmbeddedMetadata(new Uint8Array(await served.arrayBuffer()));
      expect(variant.latitude).toBeUndefined();
      for (const secret of ["SN-12345", "Jane_", "Our_home", "Secret_comment", "Jpeg_comment", "Iptc"]) {
        expect(variant.text).not.toContain(secret);
      }
      // The orientation is applied to the pixels, and the colours converted into sRGB (libvips'
      // default): nothing is left for a reader to turn or to profile.
      expect(variant.orientation ?? 1).toBe(1);
      expect(variant.iccDescription).toBeUndefined();
    }
  });
});

describe("every upload path strips", () => {
  it("multipart: a public key's session stores the stripped bytes", async () => {
    const bytes = fixture("gps.jpg");
    const started = await api(server.baseUrl, server.keys.public, "POST", "/api/v1/multipart/start", {
      file_name: "gps.jpg",
      size: bytes.length,
      format: "image/jpeg",
    });
    expect(started.status, started.text).toBe(200);
    const session = started.body as { session_id: string; part_size: number; parts: string[] };
    for (const [index, url] of session.parts.entries()) {
      const part = bytes.subarray(index * session.part_size, (index + 1) * session.part_size);
      const put = await fetch(url, { method: "PUT", body: part as BodyInit, headers: OCTETS });
      expect(put.status).toBeLessThan(300);
    }
    const done = await api(server.baseUrl, server.keys.public, "POST", "/api/v1/multipart/complete", {
      session_id: session.session_id,
    });
    expect(done.status, done.text).toBe(200);
    const file = await stored(200, (done.body as { data: unknown }).data);
    await expectStripped(file, 6);
    expect(scanData(file.bytes).equals(scanData(bytes))).toBe(true);
  });

  it("multipart: a private key's embedded_metadata given at start is applied at complete", async () => {
    const bytes = fixture("gps.webp");
    const started = await api(server.baseUrl, server.keys.private, "POST", "/api/v1/multipart/start", {
      file_name: "gps.webp",
      size: bytes.length,
      format: "image/webp",
      embedded_metadata: "strip",
    });
    expect(started.status, started.text).toBe(200);
    const session = started.body as { session_id: string; parts: string[] };
    expect(session.parts).toHaveLength(1);
    const put = await fetch(session.parts[0] as string, {
      method: "PUT",
      body: bytes as BodyInit,
      headers: OCTETS,
    });
    expect(put.status).toBeLessThan(300);
    const done = await api(server.baseUrl, server.keys.private, "POST", "/api/v1/multipart/complete", {
      session_id: session.session_id,
    });
    expect(done.status, done.text).toBe(200);
    await expectStripped(await stored(200, (done.body as { data: unknown }).data), 6);
  });

  it("remote URL: the fetched file is stripped before it is stored", async () => {
    const token = (
      (
        await api(server.baseUrl, server.keys.private, "POST", "/api/v1/uploads/tokens", {
          allow_remote: true,
        })
      ).body as { token: string }
    ).token;
    const res = await api(server.baseUrl, token, "POST", "/api/v1/uploads/remote", {
      remote_url: `${originUrl}/gps.heic`,
    });
    expect(res.status, res.text).toBe(200);
    await expectStripped(await stored(res.status, res.body), 6);
  });

  it("a file whose container cannot be parsed is refused, not stored with its location", async () => {
    const png = fixture("gps.png");
    // Cut before IEND: the chunk walk cannot vouch for what it did not see.
    const form = new FormData();
    form.set("file_name", "cut.png");
    form.set("file", new Blob([png.subarray(0, png.length - 20) as BlobPart]), "cut.png");
    const response = await fetch(`${server.baseUrl}/api/v1/uploads`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.keys.public}` },
      body: form,
    });
    expect(response.status).toBe(400);
    const body = JSON.stringify(await response.json());
    expect(body).toContain("UNSUPPORTED_MEDIA_TYPE");
    expect(body).toContain("metadata could not be removed");
  });
});
