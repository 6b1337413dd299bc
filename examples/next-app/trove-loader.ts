// next/image's loader (next.config.ts names this file). The variables are written out whole so
// that Next inlines them into the pages at build time: the browser runs this loader too.
import { createTroveLoader } from "@trove/sdk/next-image";

export default createTroveLoader({
  assetsUrl: process.env.NEXT_PUBLIC_TROVE_ASSETS_URL ?? "http://127.0.0.1:3000/assets",
  workspace: process.env.NEXT_PUBLIC_TROVE_WORKSPACE,
});
