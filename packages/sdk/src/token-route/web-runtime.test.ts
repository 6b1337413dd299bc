import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/** An entry bundled as a Worker's or a page's bundler would: browser conditions, `node:` left visible. */
async function bundled(entry: string) {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    conditions: ["dev-source"],
    external: ["node:*"],
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  const output = Object.values(result.metafile.outputs)[0];
  return { imports: (output?.imports ?? []).map((item) => item.path) };
}

describe("entries that run outside Node", () => {
  it("the token route needs no Node built-in (Cloudflare Workers, Deno, edge route handlers); only its adapters do", async () => {
    expect((await bundled("./index.ts")).imports).toEqual([]);
    expect((await bundled("./express.ts")).imports).toEqual(["node:stream"]);
    expect((await bundled("./fastify.ts")).imports).toEqual(["node:stream"]);
  });

  it("the next/image loader, which Next bundles into pages, needs no Node built-in", async () => {
    expect((await bundled("../next-image.ts")).imports).toEqual([]);
  });
});
