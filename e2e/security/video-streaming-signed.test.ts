/**
 * Security regression of signed streams (issue #33), against a real `trove-server` process over
 * loopback: the owner mints a signed URL for a private video's HLS ladder; a player fetching it
 * must be able to load that package's own playlists and segments (the signature is carried onto
 * every URI of the manifest) and nothing else. The attacker holds that signature and tries it on
 * another video's package, another ladder of the same video, the original, a transform, after it
 * expired, without it, and on names that climb out of the package (`..`, percent-encoded forms).
 * Every refusal answers what a missing file answers (404), and the server stays up.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playlistUris } from "../../apps/server/test/support/playlist-uris";
import { makeTestVideo } from "../../apps/server/test/support/test-videos";
import { uploadRecord } from "../support/upload-record.js";

const LADDER = "st_144_240";
let server: ServerProcess;
let dir: string;
let clip: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-e2e-stream-signed-"));
  clip = await makeTestVideo(dir, "clip.mp4", [], { seconds: 2 });
  server = await startServerProcess({});
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

interface Uploaded {
  file_no: string;
  path: string;
}

async function uploadPrivate(name: string): Promise<Uploaded> {
  const form = new FormData();
  form.set("file_name", name);
  form.set("folder", "private-streams");
  form.set("is_private", "true");
  form.set("file", new Blob([clip as BlobPart]), name);
  const response = await fetch(`${server.baseUrl}/api/v1/uploads`, {
    method: "POST",
    headers: { "x-api-key": server.keys.private },
    body: form,
  });
  const record = uploadRecord(await response.json());
  expect(response.status, JSON.stringify(record)).toBe(200);
  return record as unknown as Uploaded;
}

async function mint(
  fileNo: string,
  transform: string,
  expiresIn = 3600,
): Promise<{ url: URL; expiresAt: number }> {
  const response = await fetch(`${server.baseUrl}/api/v1/files/${fileNo}/signed-url`, {
    method: "POST",
    headers: { "x-api-key": server.keys.private, "content-type": "application/json" },
    body: JSON.stringify({ transform, expires_in: expiresIn }),
  });
  const body = (await response.json()) as { data: { url: string; expires_at: string } };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return { url: new URL(body.data.url), expiresAt: Date.parse(body.data.expires_at) };
}

/** Polls the signed master through the lifecycle (202 triggered / processing) until it is 200. */
async function readyMaster(url: URL): Promise<string> {
  for (;;) {
    const response = await fetch(url);
    const body = await response.text();
    if (response.status === 200) return body;
    expect(response.status, body).toBe(202);
    expect(response.headers.get("cache-control")).toBe("no-store");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A GET with the path sent exactly as written (fetch would resolve `..` and `%2e%2e` first). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname.replace(/^\[|\]$/g, ""), port, path, method: "GET" }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("a signed stream of a private video (signature holder as attacker)", () => {
  let a: Uploaded;
  let b: Uploaded;
  let signedA: { url: URL; expiresAt: number };
  let query: string;
  /** The package folder of video A: `/assets/{ws}/st_144_240/{path}`. */
  let baseA: string;
  let segmentA: string;
  let segmentB: string;

  beforeAll(async () => {
    a = await uploadPrivate("a.mp4");
    b = await uploadPrivate("b.mp4");
    signedA = await mint(a.file_no, LADDER);
    expect(signedA.url.pathname.endsWith(`/${LADDER}/${a.path.replace(/^\//, "")}/ar-master.m3u8`)).toBe(
      true,
    );
    query = signedA.url.search.slice(1);
    baseA = signedA.url.pathname.replace(/\/ar-master\.m3u8$/, "");

    const masterA = await readyMaster(signedA.url);
    const mediaUri = playlistUris(masterA)[0] as string;
    const media = await fetch(new URL(mediaUri, signedA.url));
    expect(media.status).toBe(200);
    segmentA = (playlistUris(await media.text()).at(-1) as string).split("?")[0] as string;

    const signedB = await mint(b.file_no, LADDER);
    const masterB = await readyMaster(signedB.url);
    const mediaB = await fetch(new URL(playlistUris(masterB)[0] as string, signedB.url));
    segmentB = (playlistUris(await mediaB.text()).at(-1) as string).split("?")[0] as string;
  }, 300_000);

  const at = (path: string, search = query) => `${server.baseUrl}${path}${search ? `?${search}` : ""}`;

  it("opens its own package: every URI of the manifests carries the signature and loads", async () => {
    const master = await fetch(signedA.url);
    expect(master.headers.get("content-type")).toMatch(/^application\/vnd\.apple\.mpegurl/);
    const uris = playlistUris(await master.text());
    expect(uris.length).toBeGreaterThan(0);
    for (const uri of uris) expect(uri.endsWith(`?${query}`), uri).toBe(true);
    for (const uri of uris) {
      const media = await fetch(new URL(uri, signedA.url));
      expect(media.status, uri).toBe(200);
      for (const part of playlistUris(await media.text())) {
        expect(part.endsWith(`?${query}`), part).toBe(true);
        const segment = await fetch(new URL(part, new URL(uri, signedA.url)));
        expect(segment.status, part).toBe(200);
        expect(segment.headers.get("content-type")).toBe("video/mp4");
        await segment.arrayBuffer();
      }
    }
    const dash = await fetch(at(`${baseA}/dash/manifest.mpd`));
    expect(dash.status).toBe(200);
    expect(dash.headers.get("content-type")).toMatch(/^application\/dash\+xml/);
    expect(await dash.text()).toContain(`?${query.replace("&", "&amp;")}"`);
  });

  it("opens nothing without the signature", async () => {
    for (const path of [`${baseA}/ar-master.m3u8`, `${baseA}/${segmentA}`, `${baseA}/dash/manifest.mpd`]) {
      expect((await fetch(at(path, ""))).status, path).toBe(404);
    }
  });

  it("opens neither another video's package, another ladder, the original nor a transform", async () => {
    const ws = baseA.split("/")[2] as string;
    const pathA = a.path.replace(/^\//, "");
    const pathB = b.path.replace(/^\//, "");
    const refused = [
      `/assets/${ws}/${LADDER}/${pathB}/${segmentB}`,
      `/assets/${ws}/${LADDER}/${pathB}/ar-master.m3u8`,
      `/assets/${ws}/st_144/${pathA}/ar-master.m3u8`,
      `/assets/${ws}/processing/${pathA}/ar-master.m3u8`,
      `/assets/${ws}/${pathA}`,
      `/assets/${ws}/w_100/${pathA}`,
      `/assets/${ws}/thumb_ar/${pathA}`,
    ];
    for (const path of refused) expect((await fetch(at(path))).status, path).toBe(404);
    // B's own package is fine with B's own signature: the refusals above are about the signature.
    const signedB = await mint(b.file_no, LADDER);
    expect(
      (await fetch(at(`/assets/${ws}/${LADDER}/${pathB}/${segmentB}`, signedB.url.search.slice(1)))).status,
    ).toBe(200);
  });

  it("refuses names that climb out of the package, plain or percent-encoded", async () => {
    const ws = baseA.split("/")[2] as string;
    const pathA = a.path.replace(/^\//, "");
    const pathB = b.path.replace(/^\//, "");
    const climbs = [
      `${baseA}/seg/../../b.mp4`,
      `${baseA}/../${segmentA}`,
      `${baseA}/dash/../../../${pathB}`,
      `${baseA}/%2e%2e/%2e%2e/b.mp4`,
      `${baseA}/%2E%2E%2F%2E%2E%2Fb.mp4`,
      `${baseA}/..%2f..%2f${pathB}`,
      `${baseA}/%252e%252e%252fb.mp4`,
      `${baseA}/seg-0-00001.m4s%2f..%2f..%2fb.mp4`,
      `${baseA}/${segmentA}%00.m4s`,
      `/assets/${ws}/${LADDER}/${pathA}/..%2f..%2f${LADDER}%2f${pathB}%2f${segmentB}`,
    ];
    for (const path of climbs) {
      const response = await rawGet(`${path}?${query}`);
      expect([400, 404], `${path} → ${response.status} ${response.body.slice(0, 200)}`).toContain(
        response.status,
      );
      expect(response.body).not.toContain("ftyp");
    }
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  });

  it("expires with the URL it came from", async () => {
    const short = await mint(a.file_no, LADDER, 1);
    const shortQuery = short.url.search.slice(1);
    // Wait until the server's clock is past the link's expiry (its own `expires_at`), then use it.
    while (Date.now() <= short.expiresAt + 1000) await new Promise((resolve) => setTimeout(resolve, 200));
    for (const path of [`${baseA}/ar-master.m3u8`, `${baseA}/${segmentA}`, `${baseA}/dash/manifest.mpd`]) {
      expect((await fetch(at(path, shortQuery))).status, path).toBe(404);
    }
    // The same segment with the unexpired signature still loads: the refusal is the expiry.
    expect((await fetch(at(`${baseA}/${segmentA}`))).status).toBe(200);
  });
});
