/**
 * Bench 12: layers. A 12 MP JPEG (generated, 4000×3000) delivered as `w_1200` with a text layer
 * and an image layer (a 600×200 PNG logo with alpha, stored in the same workspace) composited on
 * the resized image, beside the same `w_1200` without layers. Fresh: every request asks a quality
 * no earlier one used, so nothing is served from the variant cache. Cached: the same URL again
 * (a hit; with layers, the hit still looks the logo up, because its content is part of the key).
 * Wall time per request, as a browser sees it.
 */
import sharp from "sharp";
import type { BenchContext } from "../support/context.js";
import { type BenchResult, fmt, ratioText } from "../support/report.js";
import { MiB, median } from "../support/stats.js";
import { makeJpeg } from "../support/test-files.js";
import { timedRender } from "../support/timed-render.js";
import { troveClient } from "../support/trove-client.js";

const LAYERS =
  "l_text:arial_64_bold:Trove%20bench%20%C2%A9%202026,co_ffffff,tp_south-west,x_24,y_-24,fl_layer_apply," +
  "l_image:bench-logo.png,lw_300,tp_north-east,x_-24,y_24,o_80,fl_layer_apply";

export async function benchLayerRenders(ctx: BenchContext): Promise<BenchResult> {
  const server = await ctx.fsServer();
  const { client } = troveClient(server);
  const photo = await makeJpeg(4000, 3000);
  const logo = await sharp({ create: { width: 600, height: 200, channels: 4, background: "#3060c0b0" } })
    .png()
    .toBuffer();
  const photoFile = await client.upload(new Uint8Array(photo), { fileName: "layers-12mp.jpg" });
  await client.upload(new Uint8Array(logo), { fileName: "bench-logo.png" });

  const runs = ctx.quick ? 5 : 15;
  const fresh = { plain: [] as number[], layered: [] as number[] };
  // One unmeasured render each first (font configuration, libvips warm-up).
  for (let run = 0; run <= runs; run += 1) {
    const quality = 90 - run;
    const plain = await timedRender(client.url(photoFile, `w_1200,q_${quality}`));
    const layered = await timedRender(client.url(photoFile, `w_1200,q_${quality},${LAYERS}`));
    if (run === 0) continue;
    fresh.plain.push(plain);
    fresh.layered.push(layered);
  }
  const hits = ctx.quick ? 50 : 200;
  const cached = { plain: [] as number[], layered: [] as number[] };
  const plainUrl = client.url(photoFile, "w_1200,q_90");
  const layeredUrl = client.url(photoFile, `w_1200,q_90,${LAYERS}`);
  for (let hit = 0; hit < hits; hit += 1) {
    cached.plain.push(await timedRender(plainUrl));
    cached.layered.push(await timedRender(layeredUrl));
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const freshRatio = median(fresh.layered) / median(fresh.plain);
  const cachedRatio = mean(cached.layered) / mean(cached.plain);
  const list = (values: number[]) => values.map((ms) => fmt(ms, 0)).join(", ");
  return {
    rows: [
      {
        id: "12a",
        figure: `fresh \`w_1200\` of a 12 MP JPEG (${fmt(photo.length / MiB, 1)} MiB) with a text and an image layer, wall time ms`,
        trove: fmt(median(fresh.layered), 0),
        baseline: `${fmt(median(fresh.plain), 0)} (the same \`w_1200\` without layers)`,
        ratio: ratioText(freshRatio),
        target: "— (reported)",
        met: "n/a",
      },
      {
        id: "12b",
        figure: "the same variants cached, mean latency ms",
        trove: fmt(mean(cached.layered), 2),
        baseline: `${fmt(mean(cached.plain), 2)} (cached \`w_1200\` without layers)`,
        ratio: ratioText(cachedRatio),
        target: "— (reported)",
        met: "n/a",
      },
    ],
    notes: [
      `**12. Layers.** A generated 4000×3000 JPEG; layers \`${LAYERS}\` on \`w_1200\` (text drawn by Pango in ` +
        `the bundled Arimo Bold at 64 px; the logo a 600×200 PNG with alpha, scaled to 300 px wide, at 80 % ` +
        `opacity). Fresh: ${runs} requests each after one unmeasured, alternating, each with a quality no earlier ` +
        `request used; layered: ${list(fresh.layered)} ms; plain: ${list(fresh.plain)} ms. Cached: ${hits} ` +
        `alternating hits of one URL each; a layered hit also reads the logo's row (its hash is part of the key).`,
    ],
  };
}
