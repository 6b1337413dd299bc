/**
 * Bench 11: fresh renders per second, the shape of imgproxy's published benchmark
 * (github.com/imgproxy/image-servers-benchmark: two concurrent clients, the DIV2K validation
 * photos of about 2040×1350, fit into 512×512; JPEG quality 80, WebP 75, AVIF 65). Six
 * deterministic photo-like JPEGs of about 2K pixels (makeJpeg, in several shapes) are stored in
 * Trove and written to a directory for the baseline: a bare sharp pipeline behind a bare
 * `node:http` handler (baselines/bare-sharp-render.ts) doing the same resize and encode.
 *
 * Every request to Trove must render, not hit the variant cache: request i fits photo i mod 6
 * into a box of (512 − i mod 64)×(512 − ⌊i/64⌋ mod 64), a canonical transform no earlier
 * request used (4,096 boxes per format); the baseline gets the very same boxes. The work of a
 * box a few pixels under 512 is the work of 512. Two client loops, each request after the
 * previous one's body, for a fixed time after a few unmeasured seconds (both sides measured warm);
 * renders per second = completed / elapsed. Trove and the baseline alternate, same run, same
 * machine. Once a photo has TROVE_MAX_VARIANTS_PER_FILE variants, Trove stores no more of
 * these one-off transforms (apps/server/src/delivery/variant-store.ts); the first JPEG run still
 * stores many.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startListeningScript } from "../support/child-script.js";
import type { BenchContext } from "../support/context.js";
import { profileTroveServer } from "../support/profile-server.js";
import { type BenchResult, fmt, ratioText, verdict } from "../support/report.js";
import { median } from "../support/stats.js";
import { makeJpeg } from "../support/test-files.js";
import { troveClient } from "../support/trove-client.js";
import type { TroveServer } from "../support/trove-server.js";

const CLIENTS = 2;
const TARGET = 0.9;
/** DIV2K-like shapes: mostly 2040 wide landscapes, one portrait. */
const SHAPES: Array<[number, number]> = [
  [2040, 1356],
  [2040, 1344],
  [2040, 1536],
  [1536, 2040],
  [2040, 1152],
  [2040, 1404],
];

/** imgproxy's published figures (its benchmark repository's x86-64 results, c7i.large: 2 vCPUs), renders/s. */
const IMGPROXY_2VCPU = { jpeg: 79.6, webp: 22.0, avif: 13.2 } as const;

const OUTPUTS = [
  { id: "11a", format: "jpeg", trove: "jpg", quality: 80, label: "JPEG q80" },
  { id: "11b", format: "webp", trove: "webp", quality: 75, label: "WebP q75" },
  { id: "11c", format: "avif", trove: "avif", quality: 65, label: "AVIF q65" },
] as const;

type StoredFile = Awaited<ReturnType<ReturnType<typeof troveClient>["client"]["upload"]>>;

interface Box {
  file: number;
  width: number;
  height: number;
}

const boxOf = (i: number): Box => ({
  file: i % SHAPES.length,
  width: 512 - (i % 64),
  height: 512 - (Math.floor(i / 64) % 64),
});

/**
 * CLIENTS loops asking `urlOf(i)` for consecutive i, for `warmSeconds` unmeasured and then for
 * `seconds`; renders per second of the measured part.
 */
async function drive(
  urlOf: (i: number) => string,
  next: () => number,
  seconds: number,
  warmSeconds: number,
): Promise<number> {
  const client = async (end: number) => {
    let done = 0;
    while (performance.now() < end) {
      const url = urlOf(next());
      const response = await fetch(url);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
      done += 1;
    }
    return done;
  };
  // Unmeasured first: connections, libvips, and the JIT, which compiles the delivery path's
  // hundreds of functions over its first few hundred requests (a bare handler has a handful).
  const warm = performance.now() + warmSeconds * 1000;
  await Promise.all(Array.from({ length: CLIENTS }, () => client(warm)));
  const started = performance.now();
  const counts = await Promise.all(Array.from({ length: CLIENTS }, () => client(started + seconds * 1000)));
  return (counts.reduce((a, b) => a + b, 0) * 1000) / (performance.now() - started);
}

/** The photos stored in `server`; `urlOf(output)(i)` is request i's URL for that output. */
async function storePhotos(server: TroveServer, photos: Buffer[]) {
  const { client } = troveClient(server);
  const files: StoredFile[] = [];
  for (const [index, photo] of photos.entries()) {
    files.push(await client.upload(new Uint8Array(photo), { fileName: `fresh-${index}.jpg` }));
  }
  return (output: (typeof OUTPUTS)[number]) => (i: number) => {
    const box = boxOf(i);
    const transform = `w_${box.width},h_${box.height},c_fit,f_${output.trove},q_${output.quality}`;
    return client.url(files[box.file] as StoredFile, transform);
  };
}

export async function benchFreshRenders(ctx: BenchContext): Promise<BenchResult> {
  const dir = join(ctx.scratch.dir, "fresh-renders");
  await mkdir(dir, { recursive: true });
  const names: string[] = [];
  const photos: Buffer[] = [];
  for (const [index, [width, height]] of SHAPES.entries()) {
    photos.push(await makeJpeg(width, height));
    names.push(`photo-${index}.jpg`);
    await writeFile(join(dir, `photo-${index}.jpg`), photos[index] as Buffer);
  }
  const troveUrlOf = await storePhotos(await ctx.fsServer(), photos);
  const bare = await startListeningScript("baselines/bare-sharp-render.ts", [dir]);
  const seconds = ctx.quick ? 5 : 15;
  const warmSeconds = ctx.quick ? 1 : 3;
  const rows: BenchResult["rows"] = [];
  const runsText: string[] = [];
  try {
    for (const output of OUTPUTS) {
      let troveNext = 0;
      let bareNext = 0;
      const troveUrl = troveUrlOf(output);
      const bareUrl = (i: number) => {
        const box = boxOf(i);
        return `${bare.baseUrl}/${names[box.file]}/${box.width}/${box.height}/${output.format}/${output.quality}`;
      };
      const trove: number[] = [];
      const baseline: number[] = [];
      for (let run = 0; run < ctx.runs; run += 1) {
        trove.push(await drive(troveUrl, () => troveNext++, seconds, warmSeconds));
        baseline.push(await drive(bareUrl, () => bareNext++, seconds, warmSeconds));
      }
      const ratio = median(trove) / median(baseline);
      rows.push({
        id: output.id,
        figure: `fresh renders/s, ${CLIENTS} clients, ~2K-pixel JPEGs fit into 512×512, ${output.label} (imgproxy's 2-vCPU figure: ${IMGPROXY_2VCPU[output.format]}/s)`,
        trove: fmt(median(trove), 1),
        baseline: `${fmt(median(baseline), 1)} (bare sharp behind node:http)`,
        ratio: ratioText(ratio),
        target: `≥ ${TARGET}×`,
        met: verdict(ratio >= TARGET),
      });
      runsText.push(
        `${output.label}: Trove ${trove.map((v) => fmt(v, 1)).join(", ")}; bare ${baseline.map((v) => fmt(v, 1)).join(", ")}`,
      );
    }
  } finally {
    await bare.child.stop();
  }
  const profile: string[] = [];
  if (ctx.profile && rows.some((row) => row.met === "no")) {
    const jpeg = OUTPUTS[0];
    let urlOf: (i: number) => string = () => "";
    let next = 0;
    profile.push(
      await profileTroveServer(
        ctx,
        `- Profile of trove-server's main thread during ${seconds} s more of fresh ${jpeg.label} renders (\`--cpu-prof\`, ` +
          "unmeasured; libvips works on its own threads, which this profile does not see)",
        { databaseUrl: await ctx.databaseUrl() },
        {
          warm: async (profiled) => {
            urlOf = (await storePhotos(profiled, photos))(jpeg);
            await drive(urlOf, () => next++, 1, warmSeconds);
          },
          work: async () => {
            await drive(urlOf, () => next++, seconds, 0);
          },
        },
      ),
    );
  }
  return {
    rows,
    notes: [
      `**11. Fresh renders, imgproxy's shape.** Six photo-like JPEGs (makeJpeg; ${SHAPES.map(([w, h]) => `${w}×${h}`).join(", ")}) ` +
        `stored in Trove (fs driver) and in a directory the baseline reads. ${CLIENTS} client loops for ${seconds} s per ` +
        `figure and run after ${warmSeconds} s unmeasured, Trove and the baseline alternating; every Trove request a transform no earlier one used ` +
        `(\`w_{512−i mod 64},h_{512−⌊i/64⌋ mod 64},c_fit,f_…,q_…\`), the baseline the same boxes. Trove's side ` +
        `includes the delivery path (file lookup, transform parse and canonical form, render gate, writing the ` +
        `variant; its row and the eviction beyond TROVE_MAX_VARIANTS_PER_FILE follow the response, until each ` +
        `photo has that many variants: from then on a transform asked for once is rendered and answered but not ` +
        `stored, as for any file at its cap). Per run ` +
        `(renders/s): ${runsText.join("; ")}. ` +
        `imgproxy's published figures (github.com/imgproxy/image-servers-benchmark, results/x86_64.md; AWS c7i.large, ` +
        `2 vCPUs, k6 with 2 virtual users over the DIV2K validation set, input in the output's format): JPEG ` +
        `${IMGPROXY_2VCPU.jpeg}/s, WebP ${IMGPROXY_2VCPU.webp}/s, AVIF ${IMGPROXY_2VCPU.avif}/s. Context only: another ` +
        `machine, other photos, and their WebP/AVIF inputs decode slower than these JPEGs.`,
      ...profile,
    ],
  };
}
