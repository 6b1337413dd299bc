// POST /api/upload-token: one upload token per file the page uploads, minted with the private
// key and bound to a policy: images only, at most 10 MB, into the app's folder. In your app, add
// `authorize: (request) => …` (your login check; false answers 403) and make the folder the
// user's own.
import { createTokenRoute, type TokenRouteHandler } from "@trove/sdk/token-route";
import { troveSettings, UPLOAD_FOLDER } from "../../../lib/trove-server";

// Made on the first request, not at import: `next build` imports this module without the key.
let route: TokenRouteHandler | undefined;

export function POST(request: Request): Promise<Response> {
  route ??= createTokenRoute({
    ...troveSettings(),
    policy: () => ({
      folder: UPLOAD_FOLDER,
      allowed_types: ["image/*"],
      max_file_size: 10 * 1024 * 1024,
    }),
  });
  return route(request);
}
