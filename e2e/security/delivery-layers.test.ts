/**
 * Security (#32): layers are work and reads anyone with a URL can ask the delivery host for. Against
 * real `trove-server` processes over loopback, with no key at all on the delivery side:
 * - an SVG layer is drawn from its own bytes only: an `<image>` or `<feImage>` pointing at a URL
 *   (a loopback server that counts requests gets none) or at a file on the server's disk is refused;
 * - a private file is never composited into a public URL, and the refusal reads like the one for
 *   a path that names nothing;
 * - text is drawn as text: Pango markup in the URL is drawn literally;
 * - the bounds (8 layers, 200 characters, size 512, the layer pixel limit) answer 400, never a 5xx,
 *   and the server keeps answering;
 * - text renders the same whatever font configuration the host has: a server whose FONTCONFIG_FILE
 *   names the system's fonts, aliases Arimo to a serif, or names no font at all draws the same
 *   pixels (only the bundled fonts are ever seen).
 * Figures go to e2e/SECURITY.md.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LoopbackServer, loopbackServer } from "@trove/test-support/loopback-server";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FlatPixels, flatPixels, near } from "../../apps/server/test/support/flat-pixels";
import { solid } from "../../apps/server/test/support/test-images";
import { uploadRecord } from "../support/upload-record";

async function upload(
  server: ServerProcess,
  name: string,
  content: Uint8Array,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  form.set("file_name", name);
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("file", new Blob([content as BlobPart]), name);
  const response = await fetch(`${server.baseUrl}/api/v1/uploads`, {
    method: "POST",
    headers: { "x-api-key": server.keys.private },
    body: form,
  });
  expect(response.status, name).toBe(200);
  return uploadRecord(await response.json());
}

/** The delivery host's base for `server`'s workspace, from an upload's URL. */
const assetsOf = (record: Record<string, unknown>, name: string) => {
  const url = String(record.url);
  return url.slice(0, url.length - name.length - 1);
};

describe("layers under attack (no key)", () => {
  let server: ServerProcess;
  let assets: string;
  let listener: LoopbackServer;
  let scratch: string;

  beforeAll(async () => {
    listener = await loopbackServer((_, response) => {
      response.writeHead(200, { "content-type": "image/png" });
      response.end();
    });
    scratch = await mkdtemp(join(tmpdir(), "trove-layers-e2e-"));
    server = await startServerProcess({ TROVE_RATE_LIMIT_MAX: "100000" });
    const base = await upload(server, "base.png", await solid(300, 200, { r: 255, g: 255, b: 255 }));
    assets = assetsOf(base, "base.png");
    await upload(server, "secret.png", await solid(40, 40, { r: 255, g: 0, b: 0 }), { is_private: "true" });
    // A PNG on the server's own disk, which an SVG could name by its path.
    const onDisk = join(scratch, "on-disk.png");
    await writeFile(onDisk, await solid(40, 40, { r: 255, g: 0, b: 0 }));
    const svg = (body: string) =>
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40">${body}</svg>`,
      );
    await upload(server, "fetch.svg", svg(`<image href="${listener.url}/logo.png" width="40" height="40"/>`));
    await upload(
      server,
      "filter.svg",
      svg(
        `<filter id="f"><feImage xlink:href="${listener.url}/f.png"/></filter><rect width="40" height="40" filter="url(#f)"/>`,
      ),
    );
    await upload(server, "disk.svg", svg(`<image href="${onDisk}" width="40" height="40"/>`));
    await upload(server, "disk-url.svg", svg(`<image href="file://${onDisk}" width="40" height="40"/>`));
  });

  afterAll(async () => {
    await server?.stop();
    await listener?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  const get = (transform: string) => fetch(`${assets}/${transform}/base.png`);

  it("an SVG layer fetches nothing and reads no file of the server's", async () => {
    for (const name of ["fetch.svg", "filter.svg", "disk.svg", "disk-url.svg"]) {
      const response = await get(`l_image:${name},fl_layer_apply`);
      expect(response.status, name).toBe(400);
      expect((await response.json()).message, name).toMatch(/outside itself/);
    }
    // Give a stray fetch time to land before concluding none was made.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(listener.arrivals).toEqual([]);
  });

  it("a private file is never composited into a public URL, and reads like a missing one", async () => {
    const secret = await get("l_image:secret.png,fl_layer_apply");
    const missing = await get("l_image:absent.png,fl_layer_apply");
    expect(secret.status).toBe(400);
    expect(missing.status).toBe(400);
    const secretBody = (await secret.text()).replace("secret.png", "X");
    expect(secretBody).toBe((await missing.text()).replace("absent.png", "X"));
  });

  it("draws markup as text: no span turns red, no entity is read", async () => {
    const text = encodeURIComponent('<span foreground="red">x</span>&lt;');
    const response = await get(`l_text:arial_20:${text},tp_north-west,fl_layer_apply`);
    expect(response.status).toBe(200);
    const pixels = await flatPixels(Buffer.from(await response.arrayBuffer()));
    expect(pixels.count(0, 0, 300, 200, (pixel) => near(pixel, [255, 0, 0], 80))).toBe(0);
    // 36 characters at 20 px: far wider than the one `x<` markup would have left.
    let right = 0;
    for (let x = 0; x < 300; x++)
      if (pixels.count(x, 0, x + 1, 40, (pixel) => !near(pixel, [255, 255, 255], 2)) > 0) right = x;
    expect(right).toBeGreaterThan(200);
  });

  it("bounds answer 400, never a 5xx, and the server keeps answering", async () => {
    const attempts = [
      Array.from({ length: 9 }, () => "l_text:arial_10:a,fl_layer_apply").join(","),
      `l_text:arial_10:${"a".repeat(201)},fl_layer_apply`,
      "l_text:arial_513:a,fl_layer_apply",
      `l_text:arial_512_bold:${"W".repeat(200)},fl_layer_apply`,
      `l_text:arial_512:${encodeURIComponent("\u{FDFD}".repeat(200))},fl_layer_apply`,
      "l_image:base.png,lw_8192,lh_8192,fl_layer_apply",
      "l_text:arial_10:a",
    ];
    for (const transform of attempts) {
      const response = await get(transform);
      expect(response.status, transform.slice(0, 60)).toBe(400);
    }
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  });
});

describe("text renders the same whatever the host's font configuration", () => {
  let scratch: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "trove-fontconfig-e2e-"));
    const config = (body: string) => `<?xml version="1.0"?><fontconfig>${body}</fontconfig>`;
    const configs = {
      system: config('<include ignore_missing="yes">/etc/fonts/fonts.conf</include>'),
      serif: config(
        '<dir>/usr/share/fonts</dir><alias binding="strong"><family>Arimo</family><prefer><family>DejaVu Serif</family></prefer></alias>',
      ),
      empty: config(""),
    };
    for (const [name, body] of Object.entries(configs)) {
      const file = join(scratch, `${name}.conf`);
      await writeFile(file, body);
      servers.push(await startServerProcess({ TROVE_RATE_LIMIT_MAX: "100000", FONTCONFIG_FILE: file }));
    }
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("draws the same pixels on every server", async () => {
    const drawn: Buffer[] = [];
    for (const server of servers) {
      const base = await upload(server, "base.png", await solid(400, 120, { r: 255, g: 255, b: 255 }));
      const text = encodeURIComponent("Hello, Trove! 你好 שלום");
      const response = await fetch(
        `${assetsOf(base, "base.png")}/l_text:arial_32_bold:${text},tp_north-west,fl_layer_apply,f_png/base.png`,
      );
      expect(response.status).toBe(200);
      drawn.push(Buffer.from(await response.arrayBuffer()));
    }
    const pixels = await Promise.all(drawn.map(flatPixels));
    const ink = (image: FlatPixels) =>
      image.count(0, 0, 400, 120, (pixel) => !near(pixel, [255, 255, 255], 2));
    const values = (image: FlatPixels) => {
      const all: number[] = [];
      for (let y = 0; y < image.height; y++)
        for (let x = 0; x < image.width; x++) all.push(...image.at(x, y));
      return Buffer.from(all);
    };
    const [reference, ...others] = pixels as [FlatPixels, ...FlatPixels[]];
    expect(ink(reference)).toBeGreaterThan(500);
    for (const other of others) expect(values(other).equals(values(reference))).toBe(true);
  });
});
