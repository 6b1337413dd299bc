/**
 * Security (#32): the transform grammar is the first code an anonymous delivery URL reaches.
 * Against a real `trove-server` process over loopback, with no key on the delivery side:
 * - inputs that cost the parser work (a string over MAX_TRANSFORM_LENGTH, a flood of commas,
 *   hundreds of effects, numbers with hundreds of digits) answer 400 (404 where the segment is
 *   not recognised as a transform at all), never a 5xx;
 * - percent-escapes in a layer's text that do not decode to UTF-8 (a lone byte, an overlong `/`,
 *   an encoded surrogate) are refused, never replaced by U+FFFD;
 * - an image layer cannot leave the workspace: `..` segments, an absolute path, a backslash or a
 *   NUL in `l_image:` are refused (400 or 404), and no answer carries another file's bytes;
 * - the server keeps answering a valid URL afterwards.
 * Figures go to e2e/SECURITY.md.
 */
import { MAX_TRANSFORM_LENGTH } from "@trove/schema";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solid } from "../../apps/server/test/support/test-images";
import { uploadRecord } from "../support/upload-record";

async function upload(server: ServerProcess, name: string, content: Uint8Array, folder?: string) {
  const form = new FormData();
  form.set("file_name", name);
  if (folder !== undefined) form.set("folder", folder);
  form.set("file", new Blob([content as BlobPart]), name);
  const response = await fetch(`${server.baseUrl}/api/v1/uploads`, {
    method: "POST",
    headers: { "x-api-key": server.keys.private },
    body: form,
  });
  expect(response.status, name).toBe(200);
  return uploadRecord(await response.json());
}

describe("the transform grammar under attack (no key)", () => {
  let server: ServerProcess;
  let assets: string;
  let secret: Uint8Array;

  beforeAll(async () => {
    server = await startServerProcess({ TROVE_RATE_LIMIT_MAX: "100000" });
    const base = await upload(server, "base.png", await solid(120, 80, { r: 255, g: 255, b: 255 }), "pics");
    const url = String(base.url);
    assets = url.slice(0, url.length - "pics/base.png".length - 1);
    // A file outside the folder a traversal would start from.
    secret = await solid(30, 30, { r: 255, g: 0, b: 0 });
    await upload(server, "secret.png", secret, "keys");
  });

  afterAll(async () => {
    await server?.stop();
  });

  const get = (transform: string) => fetch(`${assets}/${transform}/pics/base.png`);

  async function expectRefused(transform: string, statuses: number[], what: string): Promise<Uint8Array> {
    const response = await get(transform);
    expect(statuses, `${what}: ${response.status}`).toContain(response.status);
    return new Uint8Array(await response.arrayBuffer());
  }

  it("refuses inputs that cost the parser work, and keeps serving", async () => {
    const block = "l_text:arial_12:a,fl_layer_apply";
    // 404 where the segment is not a step the delivery host recognises (too long, or a point
    // with more digits than any coordinate): it is then a folder name that names nothing.
    const cases: [string, string, number][] = [
      ["over the length limit", `w_1,${"e_grayscale,".repeat(MAX_TRANSFORM_LENGTH / 12)}`, 404],
      ["a comma flood at the limit", `w_1${",".repeat(MAX_TRANSFORM_LENGTH - 3)}`, 404],
      [
        "the same effect hundreds of times",
        `w_10,${Array.from({ length: 500 }, () => "e_invert").join(",")}`,
        400,
      ],
      ["nine layers", Array.from({ length: 9 }, () => block).join(","), 400],
      ["hundreds of digits", `w_${"9".repeat(400)}`, 400],
      ["a huge decimal", `e_blur:${"9".repeat(300)}.5`, 400],
      ["an exponent", "z_1e308", 400],
      ["a point with huge coordinates", `ps_${"9".repeat(200)},${"9".repeat(200)}`, 404],
      ["a 2,401-character text", `l_text:arial_12:${"a".repeat(2401)},fl_layer_apply`, 400],
      ["a text of 201 characters", `l_text:arial_12:${"%E6%97%A5".repeat(201)},fl_layer_apply`, 400],
      ["an unclosed layer", "l_text:arial_12:a", 400],
    ];
    for (const [what, transform, status] of cases) await expectRefused(transform, [status], what);
    const ok = await get("w_60");
    expect(ok.status).toBe(200);
  });

  it("refuses escapes that are not UTF-8 instead of replacing them", async () => {
    for (const text of ["%C3", "%C0%AF", "%ED%A0%80", "%FF%FE", "%F4%90%80%80", "a%"]) {
      await expectRefused(`l_text:arial_12:${text},fl_layer_apply`, [400], text);
    }
  });

  it("keeps image layers inside the workspace, and never answers with another file's bytes", async () => {
    const paths = [
      "..%2Fkeys%2Fsecret.png",
      "pics%2F..%2F..%2Fkeys%2Fsecret.png",
      "%2Fkeys%2Fsecret.png",
      "keys%5C..%5Csecret.png",
      "keys%2Fsecret.png%00.svg",
      ".%2Fkeys%2Fsecret.png",
      "keys%2F%2Fsecret.png",
    ];
    const secretHead = Buffer.from(secret.subarray(0, 64));
    for (const path of paths) {
      const body = await expectRefused(`l_image:${path},fl_layer_apply`, [400, 404], path);
      expect(Buffer.from(body).includes(secretHead), path).toBe(false);
    }
    const ok = await get("w_60");
    expect(ok.status).toBe(200);
  });
});
