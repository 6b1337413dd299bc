// Bundled at build time (tsup) and read by tsx in development: plain Node never loads the JSON.
import manifest from "../package.json" with { type: "json" };

export const PACKAGE_VERSION: string = manifest.version;
