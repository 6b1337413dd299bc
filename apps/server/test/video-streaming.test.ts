/**
 * Adaptive streaming from the delivery host (issue #33): `st_…/{video}/ar-master.m3u8` and
 * `…/dash/manifest.mpd` through the asynchronous lifecycle (202 triggered, processing, the
 * `video.render` job run by the test, then 200), one package of fMP4 segments for both protocols,
 * renditions never above the source, every rendition's segments decoded back with ffprobe;
 * package parts 404 until ready; bad ladders 400; eviction and deletion remove every file of the
 * package; a signed manifest authorizes its own package and nothing else.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobRunner } from "../src/jobs/start-workers.js";
import { variantCachePrefix } from "../src/media/variant-cache-key.js";
import { signDelivery } from "../src/signing/delivery-signature.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { playlistUris } from "./support/playlist-uris.js";
import { makeTestVideo, probeFile } from "./support/test-videos.js";
import { directUpload, listObjects, uploaded } from "./uploads-helpers.js";

let dir: string;
let t: TestApp;
let ws: string;
let clip: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-video-streaming-"));
  t = await createTestApp();
  ws = t.workspace.workspaceNo;
  // 6 s (two segments of 4 s and 2 s per rendition), 640×360: at 240 high a 16:9 width rounds to
  // 426, so the renditions' ratios differ unless the package sets one.
  clip = await makeTestVideo(dir, "clip.mp4", ["-preset", "ultrafast", "-vf", "scale=640:360"], {
    seconds: 6,
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

async function upload(name: string, fields: Record<string, string> = {}) {
  const record = uploaded(
    await directUpload(t, { file_name: name, folder: "streams", ...fields }, { content: clip }),
  );
  const row = await t.app.db.file.findUniqueOrThrow({ where: { id: record.id } });
  return { id: row.id, path: row.path, storageKey: row.storageKey };
}

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url, headers });

async function runJobs() {
  const runner = createJobRunner(t.app);
  while ((await runner.runOnce()) > 0) {}
}

describe("HLS and DASH packages", () => {
  it("goes through the lifecycle, renders only heights at or below the source, and every rendition decodes", async () => {
    const file = await upload("ladder.mp4");
    const base = `/assets/${ws}/st_144_240_480/${file.path}`;
    const first = await get(`${base}/ar-master.m3u8`);
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json()).toEqual({ status: "triggered", transformation: "st_144_240_480" });
    expect(first.headers["cache-control"]).toBe("no-store");
    // The DASH manifest is the same package: already on its way.
    const dash = await get(`${base}/dash/manifest.mpd`);
    expect(dash.statusCode).toBe(202);
    expect(dash.json()).toMatchObject({ status: "processing" });
    // A part of a package not ready is a 404 and starts nothing.
    expect((await get(`${base}/media_0.m3u8`)).statusCode).toBe(404);
    expect(await t.app.db.job.count({ where: { kind: "video.render" } })).toBe(1);

    await runJobs();
    const master = await get(`${base}/ar-master.m3u8`);
    expect(master.statusCode, master.body).toBe(200);
    expect(master.headers["content-type"]).toBe("application/vnd.apple.mpegurl");
    expect(master.body).toMatch(/^#EXTM3U/);
    const resolutions = [...master.body.matchAll(/RESOLUTION=(\d+)x(\d+)/g)].map((m) => Number(m[2]));
    // 480 is above the 360-high source: left out, never upscaled.
    expect(resolutions).toEqual([144, 240]);

    const media = playlistUris(master.body).filter((uri) => uri.startsWith("media_"));
    expect(media.length).toBe(3); // two video renditions and the audio
    for (const playlistName of media) {
      const playlist = await get(`${base}/${playlistName}`);
      expect(playlist.statusCode).toBe(200);
      const parts = playlistUris(playlist.body);
      const bytes = await Promise.all(
        parts.map(async (part) => {
          const res = await get(`${base}/${part}`);
          expect(res.statusCode, part).toBe(200);
          expect(res.headers["content-type"]).toBe("video/mp4");
          return res.rawPayload;
        }),
      );
      const path = join(dir, `${playlistName}.mp4`);
      await writeFile(path, Buffer.concat(bytes));
      const probed = await probeFile(path);
      expect(probed.durationSeconds).toBeGreaterThan(5.5);
      expect(probed.durationSeconds).toBeLessThan(6.5);
      const video = probed.streams.find((stream) => stream.codec_type === "video");
      if (video) {
        expect(video.codec_name).toBe("h264");
        expect([144, 240]).toContain(video.height);
      } else {
        expect(probed.streams.map((stream) => stream.codec_name)).toEqual(["aac"]);
      }
    }

    const manifest = await get(`${base}/dash/manifest.mpd`);
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers["content-type"]).toBe("application/dash+xml");
    expect([...manifest.body.matchAll(/height="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([144, 240]);
    const init = await get(`${base}/dash/init-0.m4s`);
    expect(init.statusCode).toBe(200);
    // Segments answer ranges (players seek in them).
    const range = await get(`${base}/dash/seg-0-00001.m4s`, { range: "bytes=0-99" });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.length).toBe(100);
  }, 120_000);

  it("reads `processing` as the default ladder: one package with its st_ spelling", async () => {
    const file = await upload("default.mp4");
    const res = await get(`/assets/${ws}/processing/${file.path}/dash/manifest.mpd`);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ status: "triggered", transformation: "st_240_360_480_720_1080" });
    const same = await get(`/assets/${ws}/st_240_360_480_720_1080/${file.path}/ar-master.m3u8`);
    expect(same.json()).toMatchObject({ status: "processing" });
  });

  it("refuses invalid ladders with a 400 naming them, and names outside a package with a 404", async () => {
    const file = await upload("bad.mp4");
    for (const ladder of ["st_100", "st_360_240", "st_240_240"]) {
      const res = await get(`/assets/${ws}/${ladder}/${file.path}/ar-master.m3u8`);
      expect(res.statusCode, ladder).toBe(400);
      expect(res.body).toContain(ladder);
    }
    for (const name of [
      "x.m4s",
      "seg-0-1.m4s",
      "master.m3u8",
      "media_0.m3u8%2F..%2Fsecret",
      "dash/manifest.mpd.bak",
    ]) {
      expect((await get(`/assets/${ws}/st_240/${file.path}/${name}`)).statusCode, name).toBe(404);
    }
  });

  it("removes every file of the package with the original", async () => {
    const file = await upload("deleted.mp4");
    await get(`/assets/${ws}/st_144/${file.path}/ar-master.m3u8`);
    await runJobs();
    expect((await get(`/assets/${ws}/st_144/${file.path}/ar-master.m3u8`)).statusCode).toBe(200);
    const prefix = variantCachePrefix(file.storageKey);
    const objects = async () => (await listObjects(t.storageDir)).filter((key) => key.startsWith(prefix));
    expect((await objects()).length).toBeGreaterThan(3);
    const row = await t.app.db.file.findUniqueOrThrow({ where: { id: file.id } });
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/files/${row.fileNo}`,
      headers: { authorization: `Bearer ${t.keys.private}` },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await runJobs();
    expect(await objects()).toEqual([]);
    expect(await t.app.db.videoOutput.count({ where: { fileId: file.id } })).toBe(0);
  }, 60_000);
});

describe("signed streams of a private video", () => {
  it("authorize their own package, carried onto every URI, and nothing else", async () => {
    const file = await upload("private.mp4", { is_private: "true" });
    const sign = (transform: string, expiresAt = new Date(Date.now() + 600_000)) =>
      signDelivery(
        t.config.urlSigning,
        { workspaceNo: ws, fileId: file.id, path: file.path, transform },
        expiresAt,
      );
    const query = sign("st_144_240");
    const base = `/assets/${ws}/st_144_240/${file.path}`;
    expect((await get(`${base}/ar-master.m3u8`)).statusCode).toBe(404);
    expect((await get(`${base}/ar-master.m3u8?${query}`)).statusCode).toBe(202);
    await runJobs();

    const master = await get(`${base}/ar-master.m3u8?${query}`);
    expect(master.statusCode, master.body).toBe(200);
    expect(master.headers["cache-control"]).toMatch(/^private/);
    const uris = playlistUris(master.body);
    expect(uris.length).toBeGreaterThan(0);
    for (const uri of uris) expect(uri.endsWith(`?${query}`), uri).toBe(true);
    const media = await get(`${base}/${uris[0]}`);
    expect(media.statusCode).toBe(200);
    const segments = playlistUris(media.body);
    for (const uri of segments) expect(uri.endsWith(`?${query}`), uri).toBe(true);
    expect((await get(`${base}/${segments[0]}`)).statusCode).toBe(200);
    const dash = await get(`${base}/dash/manifest.mpd?${query}`);
    expect(dash.statusCode).toBe(200);
    expect(dash.body).toContain(`?${query.replace("&", "&amp;")}"`);

    const segment = (segments[0] as string).split("?")[0] as string;
    // Without the signature, a segment is as missing as the file.
    expect((await get(`${base}/${segment}`)).statusCode).toBe(404);
    // The package's signature opens neither the original, nor another ladder, nor a transform.
    expect((await get(`/assets/${ws}/${file.path}?${query}`)).statusCode).toBe(404);
    expect((await get(`/assets/${ws}/st_144/${file.path}/ar-master.m3u8?${query}`)).statusCode).toBe(404);
    expect((await get(`/assets/${ws}/w_100/${file.path}?${query}`)).statusCode).toBe(404);
    // It expires with the URL it came from.
    const expired = sign("st_144_240", new Date(Date.now() - 1000));
    expect((await get(`${base}/${segment}?${expired}`)).statusCode).toBe(404);
  }, 120_000);

  it("are minted by the signed-URL endpoint: the ladder's URL names the HLS master", async () => {
    const file = await upload("minted.mp4", { is_private: "true" });
    const row = await t.app.db.file.findUniqueOrThrow({ where: { id: file.id } });
    const mint = (transform: string) =>
      t.app.inject({
        method: "POST",
        url: `/api/v1/files/${row.fileNo}/signed-url`,
        headers: { authorization: `Bearer ${t.keys.private}` },
        payload: { transform },
      });
    const minted = await mint("st_144_240");
    expect(minted.statusCode, minted.body).toBe(200);
    const url = new URL(minted.json().data.url);
    expect(url.pathname).toBe(`/assets/${ws}/st_144_240/${file.path}/ar-master.m3u8`);
    expect((await get(`${url.pathname}${url.search}`)).statusCode).toBe(202);
    // A video transform is signed in its canonical form and opens that output.
    const thumb = new URL((await mint("thumb_ar")).json().data.url);
    expect((await get(`${thumb.pathname}${thumb.search}`)).statusCode).toBe(202);
    const refused = await mint("st_100");
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain("144..2160");
  });
});
