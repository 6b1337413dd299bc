/**
 * The page of e2e/trove-video.browser.test.ts: one <TroveVideo> of a stream, bundled from the
 * packages' sources. Written with createElement rather than JSX so the e2e TypeScript setup needs
 * nothing more.
 */
import { TroveProvider } from "@trove/react";
import { TroveVideo } from "@trove/react/video";
import { createElement as h } from "react";
import { renderStrict } from "./support/react-root.js";

export interface VideoPageConfig {
  assetsUrl: string;
  /** `workspace_no/path` of the video. */
  src: string;
  streaming: number[];
}

declare global {
  interface Window {
    troveVideo: { mount(config: VideoPageConfig): void };
  }
}

window.troveVideo = {
  mount(config) {
    const { assetsUrl, src, streaming } = config;
    const video = h(TroveVideo, { src, streaming, muted: true, autoPlay: true, playsInline: true });
    renderStrict(h(TroveProvider, { assetsUrl }, video));
  },
};
