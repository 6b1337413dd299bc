/**
 * The files a delivery URL's image layers (`l_image:{path}`) name, found in the URL's own
 * workspace before the cache is consulted, because their content is part of the variant:
 *
 * - Only a file anyone may have without a signature (`publiclyServable`: active, not deleted, not
 *   expired, not private). A signed URL authorises its own file, not the files its layers name,
 *   so a private file is refused there too. Missing and private are refused alike, a 400 whose
 *   message only repeats the path the URL gave, so a layer never tells whether a private file
 *   exists (the body is the same for both; the base file's own refusals stay 404s).
 * - `versions` (each layer file's path and content hash) go into the variant's cache key and
 *   ETag: replacing `logo.png` makes a new variant, and a layer file made private or deleted is
 *   refused on the next request, cache hit or not, since this lookup runs first.
 * - `sources` hands the renderer the bytes (read from storage, at most maxInputBytes) of those
 *   files only (src/media/layers/layer-sources.ts).
 */
import { parseTransform, type Transformation } from "@trove/schema";
import { HttpError } from "../errors/http-error.js";
import type { LayerSources } from "../media/layers/layer-sources.js";
import { readMediaInput } from "../media/read-media-input.js";
import { publiclyServable } from "./access-check.js";
import type { DeliveryDeps } from "./delivery-deps.js";
import { DELIVERY_FILE_SELECT } from "./delivery-file.js";

export interface ResolvedLayerSources {
  /** `{path}\n{hash}` of each layer file, in first-use order: part of the cache key. */
  versions: string[];
  sources: LayerSources;
}

/** Layer files of `canonical` (a canonical transform) in `workspaceId`; undefined without image layers. */
export async function resolveLayerSources(
  app: Pick<DeliveryDeps, "db" | "storage">,
  workspaceId: string,
  canonical: string,
  maxInputBytes: number,
): Promise<ResolvedLayerSources | undefined> {
  // Most variants have no image layer: spare them a second parse (a canonical string spells
  // every image layer `l_image:`, and nothing else can hold those characters unescaped).
  if (!canonical.includes("l_image:")) return undefined;
  const paths = imageLayerPaths(parseTransform(canonical));
  if (paths.length === 0) return undefined;
  const rows = await app.db.file.findMany({
    where: { workspaceId, path: { in: paths } },
    select: DELIVERY_FILE_SELECT,
  });
  const byPath = new Map(rows.filter((row) => publiclyServable(row)).map((row) => [row.path, row]));
  const missing = paths.find((path) => !byPath.has(path));
  if (missing !== undefined) {
    throw new HttpError(400, `l_image:${missing}: no file at this path that this URL may show`, {
      errorCode: "INVALID_TRANSFORM",
    });
  }
  const files = paths.map((path) => byPath.get(path) as (typeof rows)[number]);
  return {
    versions: files.map((file) => `${file.path}\n${file.hash}`),
    sources: {
      image: async (path) => {
        const file = byPath.get(path);
        if (file === undefined) return undefined;
        return (await readMediaInput(await app.storage.get(file.storageKey), maxInputBytes)) as Buffer;
      },
    },
  };
}

/** The distinct paths of a transformation's image layers, in the order they are first named. */
function imageLayerPaths(steps: Transformation): string[] {
  const paths = steps.flatMap((step) =>
    (step.layers ?? []).flatMap((layer) => (layer.source.kind === "image" ? [layer.source.path] : [])),
  );
  return [...new Set(paths)];
}
