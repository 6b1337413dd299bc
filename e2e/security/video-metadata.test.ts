/**
 * A phone's video carries its owner's position (issue #33): against the real server over
 * loopback, a MOV with a location and a device uploaded with the public key (which strips by
 * default) is served back without either, and still plays; a hostile box structure is the
 * upload's 400, and the server answers the next request.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasDevice, hasLocation, makeTestVideo, probeFile } from "../../apps/server/test/support/test-videos";
import { uploadRecord } from "../support/upload-record.js";

let server: ServerProcess;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-e2e-video-metadata-"));
  server = await startServerProcess({});
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function upload(name: string, content: Uint8Array): Promise<Response> {
  const form = new FormData();
  form.set("file_name", name);
  form.set("file", new Blob([content as BlobPart]), name);
  return fetch(`${server.baseUrl}/api/v1/uploads`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.keys.public}` },
    body: form,
  });
}

describe("video originals uploaded with a public key", () => {
  it("are stored without their location and device, and still play", async () => {
    const clip = await makeTestVideo(dir, "phone.mov", [
      ...["-metadata", "location=+48.8584+002.2945/", "-metadata", "make=Phone", "-metadata", "model=X1"],
    ]);
    const before = await probeFile(join(dir, "phone.mov"));
    expect(hasLocation(before.tags) && hasDevice(before.tags)).toBe(true);

    const res = await upload("phone.mov", clip);
    expect(res.status).toBe(200);
    const record = uploadRecord(await res.json());
    const served = await fetch(String(record.url));
    expect(served.status).toBe(200);
    const path = join(dir, "served.mov");
    await writeFile(path, new Uint8Array(await served.arrayBuffer()));
    const after = await probeFile(path);
    expect(hasLocation(after.tags) || hasDevice(after.tags), JSON.stringify(after.tags)).toBe(false);
    expect(after.durationSeconds).toBeCloseTo(2, 0);
    expect(after.streams.map((stream) => stream.codec_type).sort()).toEqual(["audio", "video"]);
  });

  it("a moov that overruns the file is refused with 400, not stored with its location", async () => {
    const box = (type: string, body: Buffer) => {
      const header = Buffer.alloc(8);
      header.writeUInt32BE(8 + body.length);
      header.write(type, 4, "latin1");
      return Buffer.concat([header, body]);
    };
    const moov = box("moov", box("udta", box("\u00a9xyz", Buffer.from("+48.8584+002.2945/"))));
    moov.writeUInt32BE(moov.length + 1_000_000);
    const ftyp = box("ftyp", Buffer.from("isom\0\0\x02\0isomiso2avc1mp41", "latin1"));
    const res = await upload("hostile.mp4", Buffer.concat([ftyp, moov]));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errorCode: "UNSUPPORTED_MEDIA_TYPE" });
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  });
});
