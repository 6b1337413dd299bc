// Delivery from sources: GET {assets}/{workspace_no}-{source}/[transform/]path for each of the
// four types against real servers on loopback (s3rver, Azurite, a fake of the GCS JSON API, a
// plain HTTP origin), through the delivery host's cache, headers and error statuses.

import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteUnreferencedObjects } from "../src/files/delete-objects-job.js";
import { variantCachePrefix } from "../src/media/variant-cache-key.js";
import { S3StorageDriver } from "../src/storage/s3-driver.js";
import { setStrictTransforms } from "../src/transforms/named-transforms.js";
import { STRICT_TRANSFORMS_MESSAGE } from "../src/transforms/resolve-transform.js";
import { type AzuriteHandle, startAzurite } from "./support/azurite.js";
import { type FakeGcs, startFakeGcs } from "./support/fake-gcs.js";
import { createTestApp, type TestApp } from "./support/index.js";
import {
  loopbackOnlyConnector,
  startTestServer,
  type TestServer,
  tableLookup,
} from "./support/network-doubles.js";
import { type S3rverHandle, startS3rver } from "./support/s3rver.js";
import { solid } from "./support/test-images.js";

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

let t: TestApp;
let s3: S3rverHandle;
let azurite: AzuriteHandle;
let gcs: FakeGcs;
let web: TestServer;
let jpeg: Buffer; // 640x480
/** What the plain HTTP origin serves, by path; a missing path is 404. */
const webObjects = new Map<string, { body: Buffer; type: string; etag: string }>();
let webMode: "serve" | "hang" | "redirect-private" | "huge" = "serve";

function webOrigin(req: IncomingMessage, res: ServerResponse) {
  if (webMode === "hang") return; // never answers
  if (webMode === "redirect-private") {
    res.writeHead(302, { location: "http://10.0.0.1/cat.jpg" }).end();
    return;
  }
  if (webMode === "huge") {
    res.writeHead(200, { "content-type": "image/jpeg" });
    res.end(Buffer.alloc(3 * 1024 * 1024));
    return;
  }
  const path = decodeURIComponent((req.url ?? "").split("?")[0] ?? "");
  const object = webObjects.get(path);
  if (!object) {
    res.writeHead(404).end("missing");
    return;
  }
  if (req.headers["if-none-match"] === object.etag) {
    res.writeHead(304, { etag: object.etag }).end();
    return;
  }
  res.writeHead(200, {
    "content-type": object.type,
    etag: object.etag,
    "content-length": object.body.length,
  });
  res.end(object.body);
}

async function createSource(
  name: string,
  type: string,
  configuration: Record<string, unknown>,
  on: TestApp = t,
) {
  const res = await on.app.inject({
    method: "POST",
    url: "/api/v1/sources",
    headers: { "x-api-key": on.keys.private },
    payload: { name, type, configuration },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; name: string };
}

function deliver(origin: string, path: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: "GET",
    url: `/assets/${t.workspace.workspaceNo}-${origin}/${path}`,
    headers,
  });
}

beforeAll(async () => {
  [s3, azurite, gcs, web] = await Promise.all([
    startS3rver({ bucket: "shop" }),
    startAzurite(),
    startFakeGcs(),
    startTestServer(webOrigin),
  ]);
  jpeg = await solid(640, 480, { r: 200, g: 30, b: 30 }, "jpeg");
  const driver = new S3StorageDriver(s3.driverConfig());
  await driver.put("products/shoe.jpg", Readable.from([jpeg]), { contentType: "image/jpeg" });
  await driver.put("icons/logo.svg", Readable.from([Buffer.from(SVG)]), { contentType: "image/svg+xml" });
  await azurite.putBlob("media", "products/shoe.jpg", jpeg, "image/jpeg");
  gcs.putObject("products/shoe.jpg", jpeg, { contentType: "image/jpeg" });
  webObjects.set("/img/products/shoe.jpg", { body: jpeg, type: "image/jpeg", etag: '"v1"' });
  t = await createTestApp({
    config: {
      trustedRanges: "127.0.0.0/8",
      origins: { ttlMs: 60_000, timeoutMs: 1_500, maxBytes: 2 * 1024 * 1024, gcsApiEndpoint: gcs.endpoint },
      outbound: {
        lookup: tableLookup({ "origin.test": "127.0.0.1", "eu.origin.test": "127.0.0.1" }),
        connect: loopbackOnlyConnector(),
      },
    },
  });
  await createSource("s3store", "s3", {
    region: s3.region,
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    access_key: s3.accessKey,
    secret_key: s3.secretKey,
  });
  await createSource("blobs", "azure", {
    connection_string: azurite.connectionString(),
    container_name: "media",
  });
  await createSource("gcs", "google_cloud", {
    service_account_json: gcs.serviceAccountJson(),
    bucket_name: gcs.bucket,
  });
  await createSource("web", "image_source", { base_url: `http://origin.test:${web.port}/img` });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await Promise.all([s3?.stop(), azurite?.stop(), gcs?.stop(), web?.close()]);
});

describe.each(["s3store", "blobs", "gcs", "web"])("source %s", (origin) => {
  it("serves the original with the stored-file headers, then from Trove's copy", async () => {
    const res = await deliver(origin, "products/shoe.jpg");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
    expect(Buffer.compare(res.rawPayload, jpeg)).toBe(0);
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    const again = await deliver(origin, "products/shoe.jpg", { "if-none-match": res.headers.etag as string });
    expect(again.statusCode).toBe(304);
    const range = await deliver(origin, "products/shoe.jpg", { range: "bytes=0-9" });
    expect(range.statusCode).toBe(206);
    expect(Buffer.compare(range.rawPayload, jpeg.subarray(0, 10))).toBe(0);
  });

  it("renders a variant, cached after the first request", async () => {
    const first = await deliver(origin, "w_100,f_png/products/shoe.jpg");
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers["x-cache"]).toBe("MISS");
    expect(await sharp(first.rawPayload).metadata()).toMatchObject({ format: "png", width: 100, height: 75 });
    const second = await deliver(origin, "w_100,f_png/products/shoe.jpg");
    expect(second.headers["x-cache"]).toBe("HIT");
    expect(Buffer.compare(second.rawPayload, first.rawPayload)).toBe(0);
  });

  it("answers a missing object with 404 File not found", async () => {
    const res = await deliver(origin, "products/nope.jpg");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "File not found" });
  });
});

describe("origin reads and the cache", () => {
  it("reads an origin once per object while the copy is fresh", async () => {
    webObjects.set("/img/once.jpg", { body: jpeg, type: "image/jpeg", etag: '"once"' });
    const before = web.requests.length;
    for (let i = 0; i < 3; i++) expect((await deliver("web", "once.jpg")).statusCode).toBe(200);
    expect((await deliver("web", "w_50/once.jpg")).statusCode).toBe(200);
    expect(web.requests.length - before).toBe(1);
  });

  it("revalidates a stale copy with its ETag, and takes a changed object", async () => {
    const short = await createTestApp({
      config: {
        trustedRanges: "127.0.0.0/8",
        origins: { ttlMs: 0 },
        outbound: { lookup: tableLookup({ "origin.test": "127.0.0.1" }), connect: loopbackOnlyConnector() },
      },
    });
    try {
      const res = await short.app.inject({
        method: "POST",
        url: "/api/v1/sources",
        headers: { "x-api-key": short.keys.private },
        payload: {
          name: "web",
          type: "image_source",
          configuration: { base_url: `http://origin.test:${web.port}/img` },
        },
      });
      expect(res.statusCode).toBe(201);
      webObjects.set("/img/changing.jpg", { body: jpeg, type: "image/jpeg", etag: '"a"' });
      const url = `/assets/${short.workspace.workspaceNo}-web/changing.jpg`;
      const first = await short.app.inject({ url });
      expect(first.statusCode).toBe(200);
      const seen = web.requests.length;
      const second = await short.app.inject({ url });
      expect(second.statusCode).toBe(200);
      expect(web.requests[seen]?.headers["if-none-match"]).toBe('"a"');
      expect(second.headers.etag).toBe(first.headers.etag);
      const png = await solid(20, 10, { r: 0, g: 0, b: 255 }, "png");
      webObjects.set("/img/changing.jpg", { body: png, type: "image/png", etag: '"b"' });
      const third = await short.app.inject({ url });
      expect(third.headers["content-type"]).toBe("image/png");
      expect(third.headers.etag).not.toBe(first.headers.etag);
      expect(Buffer.compare(third.rawPayload, png)).toBe(0);
    } finally {
      await short.close();
    }
  });

  it("an origin that hangs is 504 with a message naming the source", async () => {
    webMode = "hang";
    try {
      const res = await deliver("web", "hangs.jpg");
      expect(res.statusCode).toBe(504);
      expect(res.json().message).toMatch(/^Source "web": the origin did not answer in time/);
    } finally {
      webMode = "serve";
    }
  });

  it("a redirect to a private address is 502 and never dialled", async () => {
    webMode = "redirect-private";
    try {
      const res = await deliver("web", "redirects.jpg");
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toMatch(/^Source "web": the origin's address is not allowed/);
      expect(JSON.stringify(res.json())).not.toContain("10.0.0.1");
    } finally {
      webMode = "serve";
    }
  });

  it("an object over TROVE_ORIGIN_MAX_BYTES is 413", async () => {
    webMode = "huge";
    try {
      const res = await deliver("web", "huge.jpg");
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toMatch(/^Source "web": the object is larger than the delivery limit/);
    } finally {
      webMode = "serve";
    }
  });

  it("SVG from an origin is sandboxed like stored SVG, and has no variants", async () => {
    const res = await deliver("s3store", "icons/logo.svg");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(res.headers["content-security-policy"]).toContain("sandbox");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect((await deliver("s3store", "w_100/icons/logo.svg")).statusCode).toBe(400);
  });
});

describe("the source row decides, on the next request", () => {
  it("an unknown source and an inactive source are 404 Source not found", async () => {
    expect((await deliver("nosuch", "products/shoe.jpg")).json()).toEqual({ error: "Source not found" });
    const source = await createSource("paused", "image_source", {
      base_url: `http://origin.test:${web.port}/img`,
    });
    expect((await deliver("paused", "products/shoe.jpg")).statusCode).toBe(200);
    await t.app.db.source.update({ where: { id: source.id }, data: { isActive: false } });
    const res = await deliver("paused", "products/shoe.jpg");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "Source not found" });
  });

  it("the workspace's strict mode applies to a source's variants as to stored files'", async () => {
    await createSource("strict-origin", "image_source", {
      base_url: `http://origin.test:${web.port}/img`,
    });
    expect((await deliver("strict-origin", "w_40/products/shoe.jpg")).statusCode).toBe(200);
    await setStrictTransforms(t.app.db, t.workspace.id, true);
    try {
      const refused = await deliver("strict-origin", "w_41/products/shoe.jpg");
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: "Forbidden", message: STRICT_TRANSFORMS_MESSAGE });
      // A variant rendered before is refused too, and the original is not a transform.
      expect((await deliver("strict-origin", "w_40/products/shoe.jpg")).statusCode).toBe(403);
      expect((await deliver("strict-origin", "products/shoe.jpg")).statusCode).toBe(200);
    } finally {
      await setStrictTransforms(t.app.db, t.workspace.id, false);
    }
    expect((await deliver("strict-origin", "w_41/products/shoe.jpg")).statusCode).toBe(200);
  });

  it("a deleted source is 404 and its copies are scheduled for deletion", async () => {
    const source = await createSource("gone", "image_source", {
      base_url: `http://origin.test:${web.port}/img`,
    });
    expect((await deliver("gone", "products/shoe.jpg")).statusCode).toBe(200);
    const copy = await t.app.db.originObject.findFirstOrThrow({ where: { sourceId: source.id } });
    const del = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/sources/${source.id}`,
      headers: { "x-api-key": t.keys.private },
    });
    expect(del.statusCode).toBe(204);
    expect((await deliver("gone", "products/shoe.jpg")).statusCode).toBe(404);
    const jobs = await t.app.db.job.findMany({ where: { kind: "storage.delete-objects" } });
    expect(jobs.some((job) => JSON.stringify(job.payload).includes(copy.storageKey))).toBe(true);
  });

  it("wrong credentials after a PATCH are 502 at once, naming the source and never the secret", async () => {
    const source = await createSource("rotating", "s3", {
      region: s3.region,
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      access_key: s3.accessKey,
      secret_key: s3.secretKey,
    });
    expect((await deliver("rotating", "products/shoe.jpg")).statusCode).toBe(200);
    const patch = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/sources/${source.id}`,
      headers: { "x-api-key": t.keys.private },
      payload: { configuration: { access_key: "ROTATED-KEY-93", secret_key: "rotated-secret-93" } },
    });
    expect(patch.statusCode).toBe(200);
    const res = await deliver("rotating", "products/shoe.jpg");
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      error: "Bad Gateway",
      message: expect.stringMatching(/^Source "rotating": the origin refused Trove's credentials/),
    });
    expect(res.body).not.toContain("rotated-secret-93");
    expect(res.body).not.toContain("ROTATED-KEY-93");
  });

  it("a renamed source serves under its new name; the old one redirects there (sources-rename.test.ts)", async () => {
    const source = await createSource("fixed", "image_source", {
      base_url: `http://origin.test:${web.port}/img`,
    });
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/sources/${source.id}`,
      headers: { "x-api-key": t.keys.private },
      payload: { name: "renamed" },
    });
    expect(res.statusCode).toBe(200);
    expect((await deliver("renamed", "products/shoe.jpg")).statusCode).toBe(200);
    const old = await deliver("fixed", "products/shoe.jpg");
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe(
      `${t.config.assetsUrl}/${t.workspace.workspaceNo}-renamed/products/shoe.jpg`,
    );
  });
});

describe("image_source headers", () => {
  it("canonical_header picks a subdomain of the base host, and ignores any other host", async () => {
    await createSource("multi", "image_source", { base_url: `http://origin.test:${web.port}/img` });
    webObjects.set("/img/host.jpg", { body: jpeg, type: "image/jpeg", etag: '"h"' });
    const seen = web.requests.length;
    expect((await deliver("multi", "host.jpg", { "x-forwarded-host": "eu.origin.test" })).statusCode).toBe(
      200,
    );
    expect((await deliver("multi", "host.jpg", { "x-forwarded-host": "attacker.example" })).statusCode).toBe(
      200,
    );
    const hosts = web.requests.slice(seen).map((request) => request.headers.host);
    expect(hosts).toEqual([`eu.origin.test:${web.port}`, `origin.test:${web.port}`]);
  });

  it("forward_header forwards the visitor's headers but never cookies, credentials or Trove's own", async () => {
    await createSource("fwd", "image_source", {
      base_url: `http://origin.test:${web.port}/img`,
      forward_header: true,
    });
    await createSource("nofwd", "image_source", { base_url: `http://origin.test:${web.port}/img` });
    webObjects.set("/img/fwd.jpg", { body: jpeg, type: "image/jpeg", etag: '"f"' });
    const visitor = {
      "user-agent": "VisitorBrowser/1.0",
      "accept-language": "fr",
      cookie: "session=secret-cookie",
      authorization: "Bearer visitor-token",
      "x-api-key": t.keys.public,
      "x-forwarded-for": "203.0.113.9",
    };
    const seen = web.requests.length;
    expect((await deliver("fwd", "fwd.jpg", visitor)).statusCode).toBe(200);
    expect((await deliver("nofwd", "fwd.jpg", visitor)).statusCode).toBe(200);
    const [forwarded, plain] = web.requests.slice(seen).map((request) => request.headers);
    expect(forwarded?.["user-agent"]).toBe("VisitorBrowser/1.0");
    expect(forwarded?.["accept-language"]).toBe("fr");
    for (const headers of [forwarded, plain]) {
      expect(headers?.cookie).toBeUndefined();
      expect(headers?.authorization).toBeUndefined();
      expect(headers?.["x-api-key"]).toBeUndefined();
      expect(headers?.["x-forwarded-for"]).toBeUndefined();
    }
    expect(plain?.["accept-language"]).toBeUndefined();
  });
});

describe("copies per host of an image_source", () => {
  it("a visitor inventing subdomains cannot grow a source's cache past TROVE_ORIGIN_CACHE_MAX_HOSTS", async () => {
    const maxHosts = 3;
    const invented = Array.from({ length: 12 }, (_, i) => `h${i}.origin.test`);
    const burst = Array.from({ length: 8 }, (_, i) => `c${i}.origin.test`);
    const app = await createTestApp({
      config: {
        trustedRanges: "127.0.0.0/8",
        origins: { ttlMs: 60_000, maxHostsPerSource: maxHosts },
        outbound: {
          // A wildcard DNS name: every subdomain the visitor sends resolves (to the loopback origin).
          lookup: tableLookup(
            Object.fromEntries(["origin.test", ...invented, ...burst].map((host) => [host, "127.0.0.1"])),
          ),
          connect: loopbackOnlyConnector(),
        },
      },
    });
    try {
      const { id: sourceId } = await createSource(
        "wild",
        "image_source",
        { base_url: `http://origin.test:${web.port}/img` },
        app,
      );
      webObjects.set("/img/wild.jpg", { body: jpeg, type: "image/jpeg", etag: '"w"' });
      const get = (path: string, host?: string) =>
        app.app.inject({
          url: `/assets/${app.workspace.workspaceNo}-wild/${path}`,
          headers: host ? { "x-forwarded-host": host } : {},
        });
      expect((await get("wild.jpg")).statusCode).toBe(200);

      const seen = web.requests.length;
      for (const host of invented) {
        expect((await get("wild.jpg", host)).statusCode, host).toBe(200);
        expect((await get("w_40/wild.jpg", host)).statusCode, host).toBe(200);
      }
      // Each invented host was read from the origin (the bytes may differ per host)...
      expect(web.requests.slice(seen).map((request) => request.headers.host)).toEqual(
        invented.map((host) => `${host}:${web.port}`),
      );
      // ...but the source keeps copies for the base host and the last `maxHosts` hosts only.
      const rows = await app.app.db.originObject.findMany({ where: { sourceId }, orderBy: { host: "asc" } });
      expect(rows.map((row) => row.host).sort()).toEqual(["", ...invented.slice(-maxHosts)].sort());
      await app.app.delivery.settled(); // variant rows are written after the responses
      const variants = await app.app.db.fileVariant.count({
        where: { originObject: { sourceId } },
      });
      expect(variants).toBe(maxHosts);

      // The dropped copies' bytes (and their variants) are queued for removal; once removed,
      // the source's storage holds the kept copies and their variants only.
      const jobs = await app.app.db.job.findMany({ where: { kind: "storage.delete-objects" } });
      const queued = jobs.flatMap((job) => (job.payload as { keys: string[] }).keys);
      await deleteUnreferencedObjects(app.app, queued);
      const listed = async (prefix: string) => {
        const keys: string[] = [];
        for await (const object of app.app.storage.list(prefix)) keys.push(object.key);
        return keys;
      };
      expect((await listed(`origins/${sourceId}/`)).sort()).toEqual(rows.map((row) => row.storageKey).sort());
      expect(queued.length).toBeGreaterThanOrEqual(invented.length - maxHosts);
      for (const key of queued) expect(await listed(variantCachePrefix(key)), key).toEqual([]);

      // A dropped host is read again on its next request, and takes the oldest host's place.
      const back = invented[0] as string;
      expect((await get("wild.jpg", back)).statusCode).toBe(200);
      const hosts = await app.app.db.originObject.findMany({ where: { sourceId }, select: { host: true } });
      expect(hosts.map((row) => row.host).sort()).toEqual(
        ["", back, ...invented.slice(-maxHosts + 1)].sort(),
      );

      // New hosts at once: decided one at a time under the source's lock, still within the bound.
      const answers = await Promise.all(burst.map((host) => get("wild.jpg", host)));
      expect(answers.map((answer) => answer.statusCode)).toEqual(burst.map(() => 200));
      const after = await app.app.db.originObject.findMany({ where: { sourceId, host: { not: "" } } });
      expect(new Set(after.map((row) => row.host)).size).toBeLessThanOrEqual(maxHosts);
    } finally {
      await app.close();
    }
  });
});
