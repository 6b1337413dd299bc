/**
 * What the small-upload benches (4: one image replayed; 4d, 4e: every upload distinct) share: the
 * phone-like JPEG, the form POST load, and the trove-server with metadata stripping and
 * placeholders off that each compares the default server with.
 */
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { formBody, type LoadResult, runLoad } from "../support/load.js";
import { KiB } from "../support/stats.js";
import { makeJpeg } from "../support/test-files.js";
import { startTroveServer, type TroveServer } from "../support/trove-server.js";

export const SMALL_UPLOAD_CONNECTIONS = 32;

/** A 100 KiB, 1024×768 JPEG carrying a phone's EXIF, and the upload form that sends it. */
export async function phoneUpload(): Promise<{ image: Buffer; form: { body: Buffer; contentType: string } }> {
  const image = await withPhoneMetadata(await makeJpeg(1024, 768, 100 * KiB));
  const form = formBody(
    { file_name: "photo.jpg", random_prefix: "true" },
    { field: "file", name: "photo.jpg", type: "image/jpeg", bytes: image },
  );
  return { image, form };
}

/** `seconds` of POSTs of one form body (or a body per request) from SMALL_UPLOAD_CONNECTIONS connections. */
export function postForm(
  url: string,
  form: { body: Buffer; contentType: string },
  seconds: number,
  headers: Record<string, string> = {},
  nextBody?: () => Buffer,
): Promise<LoadResult> {
  return runLoad({
    url,
    method: "POST",
    headers: { "content-type": form.contentType, ...headers },
    body: form.body,
    ...(nextBody ? { nextBody } : {}),
    connections: SMALL_UPLOAD_CONNECTIONS,
    durationSeconds: seconds,
  });
}

/**
 * The JPEG as a phone would send it: an EXIF segment with location, camera and owner spliced in
 * after its start marker, its image data untouched. sharp writes the segment (into a 1 px JPEG);
 * re-encoding the bench image itself would change its size.
 */
export async function withPhoneMetadata(jpeg: Buffer): Promise<Buffer> {
  const carrier = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#808080" } })
    .withExif({
      IFD0: { Make: "Bench", Model: "Phone 1", Artist: "A. Person", Copyright: "A. Person" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "51/1 30/1 0/1",
        GPSLongitudeRef: "W",
        GPSLongitude: "0/1 7/1 0/1",
      },
    })
    .jpeg()
    .toBuffer();
  // Segments after SOI (FF D8): marker (2 bytes) + big-endian length (which counts itself).
  let at = 2;
  while (carrier[at] === 0xff && carrier[at + 1] !== 0xe1) at += 2 + carrier.readUInt16BE(at + 2);
  if (carrier[at + 1] !== 0xe1) throw new Error("sharp wrote no EXIF segment");
  const exif = carrier.subarray(at, at + 2 + carrier.readUInt16BE(at + 2));
  return Buffer.concat([jpeg.subarray(0, 2), exif, jpeg.subarray(2)]);
}

/** A trove-server whose every workspace keeps embedded metadata and which computes no placeholders. */
export async function startPlainServer(
  databaseUrl: string | undefined,
  env: Record<string, string>,
): Promise<TroveServer> {
  const adminToken = `bench-admin-${randomBytes(16).toString("hex")}`;
  const server = await startTroveServer({
    databaseUrl,
    env: { ...env, TROVE_PLACEHOLDERS: "false", TROVE_ADMIN_TOKEN: adminToken },
  });
  const admin = { authorization: `Bearer ${adminToken}`, "content-type": "application/json" };
  const listed = await fetch(`${server.baseUrl}/admin/v1/workspaces`, { headers: admin });
  const { workspaces } = (await listed.json()) as { workspaces: Array<{ workspace_no: string }> };
  for (const { workspace_no } of workspaces) {
    const patched = await fetch(`${server.baseUrl}/admin/v1/workspaces/${workspace_no}`, {
      method: "PATCH",
      headers: admin,
      body: JSON.stringify({ embedded_metadata: "keep" }),
    });
    if (!patched.ok)
      throw new Error(`PATCH workspace ${workspace_no}: ${patched.status} ${await patched.text()}`);
  }
  return server;
}

/**
 * A body per request, each with content of its own: the last two entries of the JPEG's first
 * quantization table (the finest detail, which a photo's compressed data barely uses) hold a
 * counter, so every upload's hash differs, it still decodes, and stripping keeps the table.
 */
export function distinctBodies(body: Buffer): () => Buffer {
  const dqt = body.indexOf(Buffer.from([0xff, 0xdb]));
  if (dqt < 0) throw new Error("the bench JPEG has no quantization table");
  // FF DB, length (2 bytes), precision and table id (1), then 64 one-byte entries (8-bit tables).
  if ((body[dqt + 4] ?? 0) >> 4 !== 0) throw new Error("the bench JPEG's first table is not 8-bit");
  const last = dqt + 5 + 62;
  let counter = 0;
  return () => {
    const copy = Buffer.from(body);
    counter += 1;
    // Entries are 1..255: never 0, which the format does not allow.
    copy[last] = 1 + (counter % 255);
    copy[last + 1] = 1 + (Math.floor(counter / 255) % 255);
    return copy;
  };
}
