import type { SessionStore, TroveUploadClient } from "@trove/sdk/upload";
import { createContext, useContext } from "react";

/** What `TroveProvider` hands down. The upload client is made on first use, never during render. */
export interface TroveContextValue {
  /** The upload client; throws a TroveError (`INVALID_ARGUMENT`) when the provider cannot make one. */
  getClient(): TroveUploadClient;
  /** Where uploads are kept for resuming after a reload; undefined when resuming is off. */
  sessionStore: SessionStore | undefined;
  /** Delivery host, for `<TroveImage>`. */
  assetsUrl: string | undefined;
  /** Workspace, for images of a source's origin (`{ origin, path }`). */
  workspaceNo: string | undefined;
}

export const TroveContext = createContext<TroveContextValue | null>(null);

/** The nearest TroveProvider's value, or null outside one. */
export function useTroveContext(): TroveContextValue | null {
  return useContext(TroveContext);
}
