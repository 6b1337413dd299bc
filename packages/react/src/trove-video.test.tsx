// @vitest-environment happy-dom

import { cleanup, render } from "@testing-library/react";
import { createRef } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TroveProvider } from "./trove-provider.js";
import { TroveVideo } from "./trove-video.js";

/** hls.js as the component imports it on demand: every instance's calls, in order. */
const hls = vi.hoisted(() => {
  const instances: Array<{ calls: string[] }> = [];
  class Hls {
    static isSupported = () => true;
    static Events = { ERROR: "hlsError" };
    readonly calls: string[] = [];
    constructor() {
      instances.push(this);
    }
    loadSource(url: string) {
      this.calls.push(`load ${url}`);
    }
    attachMedia(media: HTMLMediaElement) {
      this.calls.push(`attach ${media.tagName}`);
    }
    on() {}
    destroy() {
      this.calls.push("destroy");
    }
  }
  return { Hls, instances };
});
vi.mock("hls.js/light", () => ({ default: hls.Hls }));

// The ladder is ready: the master answers 200 (attachHls asks before it attaches).
beforeEach(() => {
  vi.stubGlobal("fetch", async () => new Response(null, { status: 200 }));
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  hls.instances.length = 0;
});

const ASSETS = "http://127.0.0.1:1/assets";
const record = { file_no: "f1", workspace_no: "ws1", path: "clips/a.mp4", width: 1280, height: 720 };
const ladder = (heights: string) => `${ASSETS}/ws1/st_${heights}/clips/a.mp4/ar-master.m3u8`;
/** Lets the dynamic import of hls.js settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("<TroveVideo>", () => {
  it("server-renders the MP4, the poster, the record's size and the video attributes", () => {
    const html = renderToString(
      <TroveProvider assetsUrl={ASSETS}>
        <TroveVideo src={record} controls loop playsInline className="clip" />
      </TroveProvider>,
    );
    expect(html).toContain(`src="${ASSETS}/ws1/clips/a.mp4"`);
    expect(html).toContain(`poster="${ASSETS}/ws1/thumb_ar/clips/a.mp4"`);
    expect(html).toContain('width="1280"');
    expect(html).toContain('height="720"');
    expect(html).toContain("max-width:100%");
    expect(html).toMatch(/controls=""/);
    expect(html).toMatch(/loop=""/);
    expect(html).toMatch(/playsinline=""/i);
    expect(html).toContain('class="clip"');
  });

  it("a stream has no src in the markup: only the browser knows whether it plays HLS", () => {
    const html = renderToString(
      <TroveVideo
        src={record}
        assetsUrl={ASSETS}
        streaming={[240, 360]}
        poster={false}
        width={640}
        height={360}
      />,
    );
    expect(html).not.toContain("src=");
    expect(html).not.toContain("poster=");
    expect(html).toContain('width="640"');
    expect(html).not.toContain("max-width");
  });

  it("attaches hls.js where HLS is not native, and forwards the element to ref", async () => {
    const ref = createRef<HTMLVideoElement>();
    render(<TroveVideo ref={ref} src={record} assetsUrl={ASSETS} streaming={[240, 360]} muted autoPlay />);
    await settle();
    expect(ref.current?.tagName).toBe("VIDEO");
    expect(hls.instances.map((instance) => instance.calls)).toEqual([
      [`load ${ladder("240_360")}`, "attach VIDEO"],
    ]);
  });

  it("keeps the player across renders of the same heights, replaces it when they change, destroys it on unmount", async () => {
    const props = { src: record, assetsUrl: ASSETS };
    const view = render(<TroveVideo {...props} streaming={[240, 360]} />);
    await settle();
    view.rerender(<TroveVideo {...props} streaming={[240, 360]} />);
    await settle();
    expect(hls.instances).toHaveLength(1);
    view.rerender(<TroveVideo {...props} streaming={[360, 720]} />);
    await settle();
    expect(hls.instances).toHaveLength(2);
    expect(hls.instances[0]?.calls.at(-1)).toBe("destroy");
    expect(hls.instances[1]?.calls).toEqual([`load ${ladder("360_720")}`, "attach VIDEO"]);
    view.unmount();
    expect(hls.instances[1]?.calls.at(-1)).toBe("destroy");
  });

  it("dropping `streaming` destroys hls.js and plays the MP4 from the markup", async () => {
    const view = render(<TroveVideo src={record} assetsUrl={ASSETS} streaming={[240]} />);
    await settle();
    view.rerender(<TroveVideo src={record} assetsUrl={ASSETS} />);
    await settle();
    expect(hls.instances[0]?.calls.at(-1)).toBe("destroy");
    expect(view.container.querySelector("video")?.getAttribute("src")).toBe(`${ASSETS}/ws1/clips/a.mp4`);
  });
});
