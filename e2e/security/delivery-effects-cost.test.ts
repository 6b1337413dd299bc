/**
 * Issue #32: the costliest effects are free for anyone to ask of the delivery host. Against the
 * real `trove-server` over loopback, with a 12 MP public source: blur:1000 (libvips' Gaussian
 * costs about 7σ per pixel, so run as is it would take minutes), sharpen:2000, unsharp_mask:2000,
 * structure:100, and all of them in one step, each answer 200 with an image of the source's size
 * or a 400 naming the time limit, never a 5xx, and the server keeps answering while they render
 * (no hang). Amounts beyond the documented ranges are refused with a 400 before any work.
 */
import { errorEnvelopeSchema } from "@trove/schema";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradientPng } from "../support/png";
import { uploadSmallFile } from "../support/reliability-profile";

/** The per-pipeline limit the server runs with here (the default is 30 s). */
const TIMEOUT_SECONDS = 10;

describe("effect cost on the delivery host", () => {
  let server: ServerProcess;
  let base = "";

  beforeAll(async () => {
    server = await startServerProcess({
      TROVE_RATE_LIMIT_MAX: "100000",
      TROVE_MEDIA_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
      LOG_LEVEL: "error",
    });
    const large = await uploadSmallFile(
      server.baseUrl,
      server.keys.private,
      "large.png",
      gradientPng(4000, 3000),
    );
    expect(large).toMatchObject({ mime_type: "image/png", width: 4000, height: 3000 });
    const url = new URL(String(large.url));
    base = `${url.origin}${url.pathname.replace(/\/[^/]+$/, "")}`;
  });

  afterAll(async () => {
    await server?.stop();
  });

  /**
   * Renders `transform` of the large image (as a PNG, whose size is in its header) while polling
   * /healthz; returns the render's status and body. A render that never answers fails the test
   * by the test's own timeout.
   */
  async function render(transform: string) {
    let done = false;
    const response = fetch(`${base}/${transform},f_png/large.png`).finally(() => {
      done = true;
    });
    let healthChecks = 0;
    while (!done) {
      const health = await fetch(`${server.baseUrl}/healthz`);
      await health.arrayBuffer();
      expect(health.status).toBe(200);
      healthChecks += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const res = await response;
    const body = new Uint8Array(await res.arrayBuffer());
    console.log(
      `[security] delivery-effects-cost: ${transform} → ${res.status} (${healthChecks} /healthz answered meanwhile)`,
    );
    return { res, body };
  }

  it.each([
    "e_blur:1000",
    "e_sharpen:2000",
    "e_unsharp_mask:2000",
    "e_structure:100",
    "e_improve:outdoor,e_unsharp_mask:2000,e_sharpen:2000,e_structure:100,e_blur:1000,e_vignette:100",
  ])(
    "%s of a 12 MP image answers 200 at full size or a 400 naming the time limit, never a 5xx",
    async (transform) => {
      const { res, body } = await render(transform);
      expect([200, 400]).toContain(res.status);
      if (res.status === 200) {
        expect(res.headers.get("content-type")).toBe("image/png");
        // A PNG's width and height are the first two fields of its IHDR chunk, at bytes 16 and 20.
        const header = Buffer.from(body);
        expect([header.readUInt32BE(16), header.readUInt32BE(20)]).toEqual([4000, 3000]);
      } else {
        expect(errorEnvelopeSchema.parse(JSON.parse(new TextDecoder().decode(body)))).toMatchObject({
          error: "Validation failed",
          message: expect.stringContaining(`longer than the ${TIMEOUT_SECONDS}-second limit`),
        });
      }
      expect(server.output()).not.toMatch(/FATAL|uncaught|unhandled/i);
    },
  );

  it("refuses amounts beyond the documented ranges before rendering", async () => {
    for (const transform of [
      "e_blur:1001",
      "e_blur:0.1",
      "e_sharpen:2001",
      "e_unsharp_mask:5000",
      "e_structure:101",
    ]) {
      const res = await fetch(`${base}/${transform}/large.png`);
      expect(res.status, transform).toBe(400);
      expect(errorEnvelopeSchema.parse(await res.json()), transform).toMatchObject({
        error: "Validation failed",
        message: expect.stringContaining(transform),
      });
    }
  });
});
