/**
 * An example app as its README builds it (`vite build` with the `VITE_*` variables naming the
 * server) and serves it: the static site on its own loopback origin.
 */
import { rm } from "node:fs/promises";
import type { ServerProcess } from "../server-process.js";
import { type StaticServer, startStaticServer } from "./static-server.js";
import { viteBuild } from "./vite-build.js";

export async function startExampleSite(
  exampleDir: string,
  server: ServerProcess,
  /** More `VITE_*` variables an example reads (e.g. its folder). */
  extraEnv: Record<string, string> = {},
): Promise<StaticServer> {
  const buildDir = await viteBuild(exampleDir, {
    VITE_TROVE_PUBLIC_KEY: server.keys.public,
    VITE_TROVE_BASE_URL: server.baseUrl,
    VITE_TROVE_ASSETS_URL: server.assetsUrl,
    ...extraEnv,
  });
  const site = await startStaticServer({ directory: buildDir });
  return {
    url: site.url,
    async close() {
      await site.close();
      await rm(buildDir, { recursive: true, force: true });
    },
  };
}
