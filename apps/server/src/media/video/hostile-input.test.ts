/**
 * Files that would make ffmpeg read other local files or dial out if it chose the demuxer itself
 * (an HLS playlist, an ffconcat list, an SDP file, a playlist behind valid MP4 first bytes): they
 * are not sniffed as video, and even when forced through probeVideo/transcodeVideo as if
 * misnamed, nothing is read or dialled. Both ffmpeg builds (PATH's 5.1, the npm package's 4.1).
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeVideo, type VideoProbe } from "./probe-video.js";
import { sniffVideoContainer, type VideoContainer } from "./sniff-video-container.js";
import { transcodeVideo } from "./transcode-video.js";
import { VideoInputError, VideoRenderError } from "./video-errors.js";
import { LANDSCAPE_PROBE, TEST_LIMITS, videoToolSets } from "./video-fixtures.test-support.js";

const toolSets = await videoToolSets();
const secretText = `TROVE-SECRET-${randomBytes(16).toString("hex")}`;
let dir: string;
let secret: string;
let server: Server;
let connections = 0;
let segmentUrl: string;
const hostile: Record<string, string> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-video-hostile-"));
  // Named like a media segment, so no extension check stands between ffmpeg and it.
  secret = join(dir, "secret.ts");
  await writeFile(secret, `${secretText}\n`.repeat(64));
  server = createServer((socket) => {
    connections += 1;
    socket.end("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  segmentUrl = `http://127.0.0.1:${port}/seg.ts`;
  const files: Record<string, string | Buffer> = {
    "hls-local.mp4": `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nfile:${secret}\n#EXTINF:2,\n${secret}\n#EXT-X-ENDLIST\n`,
    "hls-loopback.mp4": `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n${segmentUrl}\n#EXT-X-ENDLIST\n`,
    "list.mp4": `ffconcat version 1.0\nfile '${secret}'\nfile '${segmentUrl}'\n`,
    "stream.mp4": `v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\nm=video ${port} RTP/AVP 96\na=rtpmap:96 H264/90000\n`,
    "playlist-behind-ftyp.mp4": Buffer.concat([
      isomFtyp(),
      Buffer.from(
        `\n#EXTM3U\n#EXTINF:2,\n${segmentUrl}\n#EXTINF:2,\nfile:${secret}\nffconcat version 1.0\nfile '${secret}'\n`,
      ),
    ]),
  };
  for (const [name, content] of Object.entries(files)) {
    hostile[name] = join(dir, name);
    await writeFile(hostile[name], content);
  }
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** A valid `ftyp` box of an MP4 (major brand isom). */
function isomFtyp(): Buffer {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write("ftypisom", 4, "latin1");
  box.write("isomiso2", 16, "latin1");
  return box;
}

const CONTAINERS: VideoContainer[] = ["mp4", "mov", "webm", "matroska"];

describe("sniffVideoContainer of hostile files", () => {
  it("returns null for the playlists, the list and the SDP file", () => {
    for (const name of ["hls-local.mp4", "hls-loopback.mp4", "list.mp4", "stream.mp4"]) {
      expect(sniffVideoContainer(readFileSync(hostile[name] as string)), name).toBeNull();
    }
  });

  it("takes the playlist behind valid MP4 first bytes for an MP4: the forced demuxer then refuses it", () => {
    expect(sniffVideoContainer(readFileSync(hostile["playlist-behind-ftyp.mp4"] as string))).toBe("mp4");
  });
});

describe.each(toolSets)("hostile files forced through the engine with $name", ({ name, tools }) => {
  it.each(CONTAINERS)("probeVideo as %s reads nothing else and dials nothing", async (container) => {
    for (const path of Object.values(hostile)) {
      const error = await probeVideo(tools, path, container, TEST_LIMITS).catch((e: unknown) => e);
      expect(error, path).toBeInstanceOf(VideoInputError);
      expect((error as Error).message).not.toContain(secretText);
      expect((error as Error).message).not.toContain(dir);
    }
    expect(connections).toBe(0);
  });

  it.each(CONTAINERS)("transcodeVideo as %s reads nothing else and dials nothing", async (container) => {
    // What the file would be if it were the video its name says.
    const probe: VideoProbe = { ...LANDSCAPE_PROBE, container, durationSeconds: 4 };
    for (const [file, path] of Object.entries(hostile)) {
      for (const transform of [{}, { thumb: true as const }, { f: "gif" as const }]) {
        const output = join(
          dir,
          `${name.replace(/\W/g, "")}-${container}-${file}.${transform.thumb ? "webp" : (transform.f ?? "mp4")}`,
        );
        const logged: string[] = [];
        const error = await transcodeVideo(tools, {
          input: path,
          probe,
          transform,
          output,
          limits: TEST_LIMITS,
          log: { debug: (details) => logged.push(JSON.stringify(details)) },
        }).catch((e: unknown) => e);
        expect(error, `${file} as ${container}`).toBeInstanceOf(VideoRenderError);
        expect((error as Error).message).not.toContain(secretText);
        expect((error as Error).message).not.toContain(dir);
        expect(logged.join("\n")).not.toContain(secretText);
        if (existsSync(output)) expect(readFileSync(output).toString("latin1")).not.toContain(secretText);
      }
    }
    expect(connections).toBe(0);
  });
});

describe("the loopback server these tests watch", () => {
  it("counts a connection, so the zero counts above mean nothing dialled it", async () => {
    const before = connections;
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.end());
      socket.resume();
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    await expect.poll(() => connections).toBe(before + 1);
  });
});
