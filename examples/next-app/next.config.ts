import type { NextConfig } from "next";

const config: NextConfig = {
  images: {
    // Every <Image> asks Trove's delivery host for its widths (./trove-loader.ts): Next's own
    // optimiser is not used, so the app's server never downloads or resizes an image.
    loader: "custom",
    loaderFile: "./trove-loader.ts",
  },
};

export default config;
