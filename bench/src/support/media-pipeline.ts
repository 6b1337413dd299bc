/**
 * Trove's store-time image pipeline called in this process, without HTTP, storage or database,
 * to split an upload's time into "the image work" and "everything around it". Reaches into
 * apps/server/src (the package exports no media API); diagnostics only.
 */
import { processImage } from "../../../apps/server/src/media/index.js";

/** Wall time of one `processImage` (header; with a transform: decode, transform, encode), ms. */
export async function timeProcessImage(bytes: Buffer, transform?: string): Promise<number> {
  const started = performance.now();
  await processImage({ input: bytes, ...(transform ? { transform } : {}) });
  return performance.now() - started;
}
