/**
 * Bench 10: a phone photo as HEIC. A 12 MP HEIC (bench/fixtures/photo-12mp.heic, 4032×3024,
 * checked in: heif-enc is not on CI machines) stored as it is, then delivered as `w_800,f_webp`
 * with nothing cached (each request a quality no earlier one asked for, so each is a fresh
 * render: libheif decoding in a WebAssembly worker, then sharp on the raw pixels), beside the
 * same photo as a JPEG (made in this run from the HEIC's own pixels, quality 90), delivered the
 * same way (libvips decoding with shrink-on-load). Wall time per request, as a browser sees it.
 */
import { readFileSync } from "node:fs";
import { renderVariant } from "../../../apps/server/src/media/index.js";
import type { BenchContext } from "../support/context.js";
import { type BenchResult, fmt, ratioText } from "../support/report.js";
import { MiB, median } from "../support/stats.js";
import { timedRender } from "../support/timed-render.js";
import { troveClient } from "../support/trove-client.js";

const HEIC = new URL("../../fixtures/photo-12mp.heic", import.meta.url);

export async function benchHeicRender(ctx: BenchContext): Promise<BenchResult> {
  const server = await ctx.fsServer();
  const { client } = troveClient(server);
  const heic = readFileSync(HEIC);
  const jpeg = (await renderVariant({ input: heic, transform: "f_jpg,q_90" })).body;
  const heicFile = await client.upload(new Uint8Array(heic), { fileName: "photo-12mp.heic" });
  const jpegFile = await client.upload(new Uint8Array(jpeg), { fileName: "photo-12mp.jpg" });

  const runs = ctx.quick ? 3 : 9;
  const heicMs: number[] = [];
  const jpegMs: number[] = [];
  // One unmeasured render each first (worker start, WebAssembly compile, libvips warm-up).
  for (let run = 0; run <= runs; run += 1) {
    const transform = `w_800,f_webp,q_${90 - run}`;
    const heicTime = await timedRender(client.url(heicFile, transform));
    const jpegTime = await timedRender(client.url(jpegFile, transform));
    if (run === 0) continue;
    heicMs.push(heicTime);
    jpegMs.push(jpegTime);
  }
  const ratio = median(heicMs) / median(jpegMs);
  const list = (values: number[]) => values.map((ms) => fmt(ms, 0)).join(", ");
  return {
    rows: [
      {
        id: "10",
        figure: `fresh \`w_800,f_webp\` of a 12 MP HEIC (${fmt(heic.length / MiB, 2)} MiB), wall time ms`,
        trove: fmt(median(heicMs), 0),
        baseline: `${fmt(median(jpegMs), 0)} (the same photo as a ${fmt(jpeg.length / MiB, 2)} MiB JPEG)`,
        ratio: ratioText(ratio),
        target: "— (reported)",
        met: "n/a",
      },
    ],
    notes: [
      `**10. HEIC.** \`bench/fixtures/photo-12mp.heic\`: 4032×3024, one HEVC image (an iPhone writes a grid of ` +
        `512×512 tiles; libheif decodes either), made with \`heif-enc -q 40\` from a photo-like JPEG. The JPEG twin ` +
        `is the HEIC's decoded pixels encoded by sharp at quality 90 in this run. Both stored as originals; each ` +
        `request asks \`w_800,f_webp,q_N\` with an N no earlier request used, so nothing is served from the variant ` +
        `cache; ${runs} requests each after one unmeasured, alternating. HEIC: ${list(heicMs)} ms; JPEG: ` +
        `${list(jpegMs)} ms. The HEIC side decodes every pixel (libheif in WebAssembly, in a worker thread, with ` +
        `no shrink-on-load) before sharp resizes; the JPEG side decodes at reduced size (libjpeg's DCT scaling).`,
    ],
  };
}
