/**
 * Security: ffmpeg reading hostile input (issue #33). An uploaded "video" can be an HLS playlist
 * or a concat list that makes a demuxer dial a URL or read a local file. Against a real
 * `trove-server` with workers on, over loopback, files named `clip.mp4` that are such playlists
 * (one naming a loopback server this test runs, one naming a local secret file, and one that
 * starts with an MP4 `ftyp` box so that it passes the container check and reaches a render job)
 * are uploaded, and video transforms of them asked for: the plain playlists answer 400 (they are
 * never handed to ffmpeg), the disguised one fails its job (422, ffmpeg forced to the MOV demuxer
 * and the file protocol); the loopback server sees no connection and the secret appears in no
 * response. A real MP4 with GPS tags, stored as it came (private key: `keep`), renders a `w_160`
 * whose container has no location.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasDevice, hasLocation, makeTestVideo, probeFile } from "../../apps/server/test/support/test-videos";
import { uploadRecord } from "../support/upload-record";

describe("hostile video input", () => {
  let server: ServerProcess;
  let assets: string;
  let dir: string;
  let loopback: Server;
  let connections = 0;
  let port: number;
  const secret = `trove-secret-${randomBytes(16).toString("hex")}`;
  let secretPath: string;
  /** Every response body this test read from the server. */
  const seen: string[] = [];

  async function upload(name: string, content: Uint8Array | string, folder: string): Promise<string> {
    const form = new FormData();
    form.set("file_name", name);
    form.set("folder", folder);
    form.set("file", new Blob([content as BlobPart]), name);
    const response = await fetch(`${server.baseUrl}/api/v1/uploads`, {
      method: "POST",
      headers: { "x-api-key": server.keys.private },
      body: form,
    });
    const text = await response.text();
    seen.push(text);
    expect(response.status, text).toBe(200);
    return String(uploadRecord(JSON.parse(text)).url);
  }

  /** GET, recording the body. */
  async function get(url: string): Promise<{ status: number; body: Buffer; type: string | null }> {
    const response = await fetch(url);
    const body = Buffer.from(await response.arrayBuffer());
    seen.push(body.toString("latin1"));
    return { status: response.status, body, type: response.headers.get("content-type") };
  }

  /** Asks until the answer is no longer 202 (the render job finished), a bounded number of times. */
  async function poll(url: string) {
    for (let attempt = 0; attempt < 1200; attempt++) {
      const res = await get(url);
      if (res.status !== 202) return res;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${url} still processing`);
  }

  const transformed = (url: string, transform: string) => {
    const path = new URL(url).pathname.slice(new URL(assets).pathname.length + 1);
    const [workspace, ...rest] = path.split("/");
    return `${assets}/${workspace}/${transform}/${rest.join("/")}`;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trove-video-hostile-"));
    secretPath = join(dir, "secret.txt");
    await writeFile(secretPath, `${secret}\n`);
    loopback = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => loopback.listen(0, "127.0.0.1", resolve));
    port = (loopback.address() as { port: number }).port;
    server = await startServerProcess({
      TROVE_RATE_LIMIT_MAX: "100000",
      TROVE_JOB_POLL_INTERVAL_MS: "100",
      LOG_LEVEL: "error",
    });
    assets = server.assetsUrl;
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => loopback?.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it("never hands a playlist named clip.mp4 to ffmpeg: 400, no connection, no secret", {
    timeout: 120_000,
  }, async () => {
    const playlists = {
      "dial.mp4": `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nhttp://127.0.0.1:${port}/x.ts\n#EXT-X-ENDLIST\n`,
      "read.mp4": `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile://${secretPath}\n#EXT-X-ENDLIST\n`,
      "concat.mp4": `ffconcat version 1.0\nfile '${secretPath}'\nfile 'http://127.0.0.1:${port}/x.ts'\n`,
    };
    for (const [name, playlist] of Object.entries(playlists)) {
      const url = await upload(name, playlist, "hostile");
      for (const transform of ["w_160", "thumb_ar", "so_0,d_1"]) {
        const res = await get(transformed(url, transform));
        expect(res.status, `${name} ${transform}`).toBe(400);
      }
      // The bytes themselves are served as what they are, never as video.
      const original = await get(url);
      expect(original.type, name).not.toMatch(/^video\//);
    }
    expect(connections).toBe(0);
    for (const body of seen) expect(body).not.toContain(secret);
  });

  it("fails the render of a playlist behind an MP4 header without reading or dialling", {
    timeout: 180_000,
  }, async () => {
    // A valid `ftyp` box (isom): the container check passes and a job runs ffmpeg on it.
    const ftyp = Buffer.from("0000001c6674797069736f6d0000020069736f6d69736f32617663316d703431", "hex");
    const playlist = `#EXTM3U\n#EXTINF:1,\nhttp://127.0.0.1:${port}/x.ts\n#EXTINF:1,\nfile://${secretPath}\n`;
    const url = await upload("disguised.mp4", Buffer.concat([ftyp, Buffer.from(playlist)]), "hostile");
    const target = transformed(url, "w_160");
    // It passes the container check, so a render job is queued and runs ffmpeg on it...
    expect((await get(target)).status).toBe(202);
    // ...which, forced to the MOV demuxer and the file protocol, fails for good.
    const res = await poll(target);
    expect(res.status).toBe(422);
    expect(connections).toBe(0);
    for (const body of seen) expect(body).not.toContain(secret);
  });

  it("renders a video with GPS tags into an output without them", { timeout: 180_000 }, async () => {
    const located = ["-metadata", "location=+48.8584+002.2945/", "-metadata", "make=Phone"];
    const clip = await makeTestVideo(dir, "gps.mp4", located, { seconds: 1 });
    const url = await upload("gps.mp4", clip, "located");
    const tagsOf = async (bytes: Buffer) => {
      const path = join(dir, `probe-${randomBytes(4).toString("hex")}`);
      await writeFile(path, bytes);
      return (await probeFile(path)).tags;
    };
    // Stored as it came (a private key's upload keeps embedded metadata by default).
    expect(hasLocation(await tagsOf((await get(url)).body))).toBe(true);
    const output = await poll(transformed(url, "w_160"));
    expect(output.status).toBe(200);
    expect(output.type).toBe("video/mp4");
    const tags = await tagsOf(output.body);
    expect(hasLocation(tags)).toBe(false);
    expect(hasDevice(tags)).toBe(false);
  });
});
