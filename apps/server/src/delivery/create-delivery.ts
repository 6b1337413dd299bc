/**
 * The delivery host's services, built once per app: stored files with their transformed variants
 * as fallback, and sources' objects through the origin cache. The routes (src/routes/delivery.ts)
 * only parse the URL and hand the request to one of them.
 */
import type { DeliveryDeps } from "./delivery-deps.js";
import { type FileDelivery, fileDelivery } from "./file-delivery.js";
import { type OriginDelivery, originDelivery } from "./origin-delivery.js";
import { variantDelivery } from "./variant-delivery.js";
import { videoDelivery } from "./video-delivery.js";

export interface Delivery {
  files: FileDelivery;
  origins: OriginDelivery;
  /** Resolves when fresh renders' bookkeeping (variant rows, evictions) has finished. */
  settled(): Promise<void>;
  /** Releases the origin readers' connections and deferred evictions (call on app close). */
  close(): void;
}

export function createDelivery(deps: DeliveryDeps): Delivery {
  const variants = variantDelivery(deps, videoDelivery(deps));
  const origins = originDelivery(deps, variants);
  return {
    files: fileDelivery(deps, variants.fallback),
    origins,
    settled: () => variants.settled(),
    close: () => {
      origins.close();
      variants.close();
    },
  };
}
