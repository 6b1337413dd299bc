import { deliveryBase, encodeDeliveryPath } from "@trove/schema/zod-free";
import type { TroveClient } from "@trove/sdk";
import { useEffect, useState } from "react";

/**
 * The server's default delivery base (TROVE_ASSETS_PREFIX "/assets" on the public URL), used
 * only while no stored file tells the real one.
 */
const DEFAULT_ASSETS_PATH = "/assets";

/**
 * The delivery host's base URL (`assets_url`). The console's API does not state it, but every
 * file record's `url` is `{assets_url}/{workspace_no}/{path}`: one file of the workspace gives it,
 * including a TROVE_ASSETS_URL on another host. A workspace with no file yet gets the server's
 * default on this origin.
 */
export function useAssetsUrl(client: TroveClient): string {
  const [assetsUrl, setAssetsUrl] = useState(`${window.location.origin}${DEFAULT_ASSETS_PATH}`);
  useEffect(() => {
    let current = true;
    client.files.list({ limit: 1 }).then(
      ({ files }) => {
        const file = files[0];
        if (!current || !file) return;
        const suffix = `${deliveryBase("", file.workspace_no)}/${encodeDeliveryPath(file.path)}`;
        if (file.url.endsWith(suffix)) setAssetsUrl(file.url.slice(0, -suffix.length));
      },
      // The default stands: the list's failure is the library's to report, not this page's.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [client]);
  return assetsUrl;
}

/** `{assets_url}/{workspace_no}-{name}/`: an object's path (and a transform before it) follows. */
export function sourceDeliveryUrl(assetsUrl: string, workspaceNo: string, name: string): string {
  return `${deliveryBase(assetsUrl, workspaceNo, name)}/`;
}
