/**
 * Bench 7: min+gzip size of an upload-only browser bundle. Each library's upload entry point is
 * bundled by esbuild with the same settings (browser platform, ESM, minified, tree-shaken,
 * production NODE_ENV), gzip level 9. The SDK is bundled from source (`dev-source`, as its own
 * size test does). Nothing is left external, so a Node-only import would fail the build.
 *
 * Bench 7r: the same for a drop-in React uploader (provider and uploader component with their
 * upload engine) against the peers' React packages, and `@trove/react/image` on its own. React
 * itself is left external in those rows: every page that uses them already has it.
 */
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import type { BenchContext } from "../support/context.js";
import { type BenchResult, fmt, type Row, ratioText, verdict } from "../support/report.js";
import { BENCH_DIR } from "../support/trove-server.js";

interface Entry {
  name: string;
  source: string;
  /** Packages the page already has (React), not counted. */
  external?: readonly string[];
}

const TROVE: Entry = {
  name: "@trove/sdk/upload",
  source: `export { createUploadClient } from "@trove/sdk/upload";`,
};

const PEERS: Entry[] = [
  { name: "@uploadcare/upload-client", source: `export { uploadFile } from "@uploadcare/upload-client";` },
  { name: "tus-js-client", source: `export { Upload } from "tus-js-client";` },
  {
    name: "@aws-sdk/lib-storage + @aws-sdk/client-s3",
    source: `export { Upload } from "@aws-sdk/lib-storage";\nexport { S3Client } from "@aws-sdk/client-s3";`,
  },
];

const REACT = ["react", "react-dom", "react/jsx-runtime"] as const;

const TROVE_REACT: Entry = {
  name: "@trove/react",
  source: `export { TroveProvider, TroveUploader } from "@trove/react";`,
  external: REACT,
};

const TROVE_REACT_IMAGE: Entry = {
  name: "@trove/react/image",
  source: `export { TroveImage } from "@trove/react/image";`,
  external: REACT,
};

// Each peer's drop zone with its file list and upload engine, as unstyled as it comes.
const REACT_PEERS: Entry[] = [
  {
    name: "@uploadthing/react",
    source: `export { UploadDropzone } from "@uploadthing/react";`,
    external: REACT,
  },
  {
    name: "@uppy/react + @uppy/core + @uppy/xhr-upload",
    source:
      `export { UppyContextProvider, Dropzone, FilesList } from "@uppy/react";\n` +
      `export { default as Uppy } from "@uppy/core";\nexport { default as XHRUpload } from "@uppy/xhr-upload";`,
    external: REACT,
  },
];

interface Bundled {
  minified: number;
  gzipped: number;
  /** Minified bytes each source file contributed, largest first. */
  inputs: Array<{ path: string; bytes: number }>;
}

async function bundle(entry: Entry): Promise<Bundled> {
  const result = await build({
    stdin: { contents: entry.source, resolveDir: BENCH_DIR, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2020",
    conditions: ["dev-source"],
    define: { "process.env.NODE_ENV": '"production"' },
    external: [...(entry.external ?? [])],
    // Peers import their stylesheets from JavaScript; styles are not script size.
    loader: { ".css": "empty" },
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const output = Object.values(result.metafile.outputs)[0];
  const inputs = Object.entries(output?.inputs ?? {})
    .map(([path, input]) => ({
      path: path.replace(/^.*?(packages\/|node_modules\/)/, "$1"),
      bytes: input.bytesInOutput,
    }))
    .filter((input) => input.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error(`esbuild produced nothing for ${entry.name}`);
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength, inputs };
}

function listInputs(inputs: Bundled["inputs"], count: number): string {
  const shortPath = (path: string) =>
    path.replace(/^packages\/sdk\/src\//, "").replace(/^node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, "");
  const shown = inputs
    .slice(0, count)
    .map((input) => `\`${shortPath(input.path)}\` ${fmt(input.bytes / 1024, 1)}`);
  const rest = inputs.slice(count);
  if (rest.length > 0) {
    const restKiB = rest.reduce((sum, input) => sum + input.bytes, 0) / 1024;
    shown.push(`${rest.length} more files ${fmt(restKiB, 1)}`);
  }
  return shown.join(", ");
}

function byPackage(inputs: Bundled["inputs"]): string {
  const totals = new Map<string, number>();
  for (const input of inputs) {
    const name =
      /^packages\/([^/]+)\/src\/([^/]+\/)?/.exec(input.path)?.[0].replace(/\/$/, "") ??
      /node_modules\/((@[^/]+\/)?[^/]+)\//.exec(input.path)?.[1] ??
      input.path;
    totals.set(name, (totals.get(name) ?? 0) + input.bytes);
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .map(([name, bytes]) => `\`${name}\` ${fmt(bytes / 1024, 1)}`)
    .join(", ");
}

const kib = (bytes: number) => fmt(bytes / 1024, 1);

/** Trove's entry against the smallest of its peers: smaller is the target. */
function sizeRow(
  id: string,
  figure: string,
  trove: { gzipped: number },
  smallest: { name: string; gzipped: number },
): Row {
  return {
    id,
    figure,
    trove: kib(trove.gzipped),
    baseline: `${kib(smallest.gzipped)} (smallest peer: ${smallest.name})`,
    ratio: ratioText(trove.gzipped / smallest.gzipped),
    target: "smallest of them",
    met: verdict(trove.gzipped < smallest.gzipped),
  };
}

export async function benchBundleSize(_ctx: BenchContext): Promise<BenchResult> {
  const trove = await bundle(TROVE);
  const peers = await Promise.all(PEERS.map(async (peer) => ({ ...peer, ...(await bundle(peer)) })));
  const smallest = peers.reduce((a, b) => (b.gzipped < a.gzipped ? b : a));
  const [troveReact, troveImage] = await Promise.all([bundle(TROVE_REACT), bundle(TROVE_REACT_IMAGE)]);
  const reactPeers = await Promise.all(
    REACT_PEERS.map(async (peer) => ({ ...peer, ...(await bundle(peer)) })),
  );
  const smallestReact = reactPeers.reduce((a, b) => (b.gzipped < a.gzipped ? b : a));
  return {
    rows: [
      sizeRow("7", "min+gzip size of the upload-only browser entry, KiB", trove, smallest),
      sizeRow(
        "7r",
        "min+gzip size of a drop-in React uploader with its upload engine (React not counted), KiB",
        troveReact,
        smallestReact,
      ),
    ],
    notes: [
      [
        "**7. Bundle size.** esbuild: `bundle`, `minify`, `format: esm`, `platform: browser`, `target: es2020`, " +
          "`NODE_ENV=production`; gzip level 9. Each entry imports only the upload entry point of its library:",
        "",
        "| library | entry | minified | min+gzip |",
        "| --- | --- | --- | --- |",
        ...[{ ...TROVE, ...trove }, ...peers].map(
          (b) =>
            `| ${b.name} | \`${b.source.replaceAll("\n", " ")}\` | ${kib(b.minified)} KiB | ${kib(b.gzipped)} KiB |`,
        ),
        "",
        `Where the SDK's ${kib(trove.minified)} KiB (minified, before gzip) come from, largest first: ` +
          listInputs(trove.inputs, 16) +
          `. By package: ${byPackage(trove.inputs)}` +
          `. The smallest peer's ${kib(smallest.minified)} KiB: ${listInputs(smallest.inputs, 8)}.`,
        ...(trove.gzipped < smallest.gzipped
          ? []
          : [
              "",
              "**What limits it.** Features the smallest peer does not have in its upload path, each a file in the " +
                "list above: pause/resume (`upload/upload-task.ts`), resumable sessions with a pluggable store " +
                "(`upload/session-journal.ts`, `upload/session-key.ts`), multipart with bounded concurrency and " +
                "stream parts (`upload/multipart-upload.ts`, `upload/part-feed.ts`), per-part retries with backoff and " +
                "`Retry-After` (`retry-policy.ts`, `retry-after.ts`), XMLHttpRequest progress (`xhr-transport.ts`), " +
                "and the error family with its status table (`errors.ts`, `error-from-response.ts`). The transform " +
                "grammar (`@trove/sdk/transform`), the refused-connection check and the extension-to-MIME table " +
                "(both for Node, Bun and Deno: `@trove/sdk/node`) are not in this entry.",
            ]),
        "",
        "**7r. React uploader.** The same settings with React external; stylesheets imported from JavaScript are not counted:",
        "",
        "| library | entry | minified | min+gzip |",
        "| --- | --- | --- | --- |",
        ...[{ ...TROVE_REACT, ...troveReact }, { ...TROVE_REACT_IMAGE, ...troveImage }, ...reactPeers].map(
          (b) =>
            `| ${b.name} | \`${b.source.replaceAll("\n", " ")}\` | ${kib(b.minified)} KiB | ${kib(b.gzipped)} KiB |`,
        ),
      ].join("\n"),
    ],
  };
}
