import { describe, expect, it } from "vitest";
import { attachHls, HLS_MIME_TYPE, type HlsConstructor, type HlsInstance } from "./attach-hls.js";

const SOURCES = {
  hls: "http://127.0.0.1:1/assets/ws1/st_240_360/a.mp4/ar-master.m3u8",
  mp4: "http://127.0.0.1:1/assets/ws1/a.mp4",
};

/** The <video> surface attachHls touches, recording what was done to it. */
class FakeVideo {
  readonly log: string[] = [];
  currentTime = 0;
  paused = true;
  private attribute: string | null = null;
  private readonly listeners = new Map<string, Set<() => void>>();
  constructor(private readonly native: boolean) {}
  canPlayType(type: string): string {
    return this.native && type === HLS_MIME_TYPE ? "maybe" : "";
  }
  get src(): string {
    return this.attribute ?? "";
  }
  set src(url: string) {
    this.attribute = url;
    this.log.push(`src ${url}`);
  }
  hasAttribute(name: string): boolean {
    return name === "src" && this.attribute !== null;
  }
  getAttribute(name: string): string | null {
    return name === "src" ? this.attribute : null;
  }
  removeAttribute(name: string): void {
    if (name === "src") this.attribute = null;
    this.log.push(`remove ${name}`);
  }
  load(): void {
    this.log.push("load");
  }
  addEventListener(type: string, listener: () => void): void {
    this.listeners.set(type, (this.listeners.get(type) ?? new Set()).add(listener));
  }
  removeEventListener(type: string, listener: () => void): void {
    this.listeners.get(type)?.delete(listener);
  }
  dispatch(type: string): void {
    for (const listener of [...(this.listeners.get(type) ?? [])]) listener();
  }
  listenerCount(type: string): number {
    return this.listeners.get(type)?.size ?? 0;
  }
}

/** An hls.js stand-in: each instance records its calls; `emit` plays an ERROR event. */
function fakeHls(supported = true) {
  const instances: Array<HlsInstance & { calls: string[]; emit(data: { fatal: boolean }): void }> = [];
  class Hls {
    static isSupported = () => supported;
    static Events = { ERROR: "hlsError" };
    readonly calls: string[] = [];
    private readonly handlers: Array<(event: string, data: { fatal: boolean }) => void> = [];
    constructor() {
      instances.push(this);
    }
    loadSource(url: string) {
      this.calls.push(`loadSource ${url}`);
    }
    attachMedia(media: HTMLMediaElement) {
      this.calls.push(`attachMedia ${(media as unknown as FakeVideo) instanceof FakeVideo}`);
    }
    on(event: string, handler: (event: string, data: { fatal: boolean }) => void) {
      this.calls.push(`on ${event}`);
      this.handlers.push(handler);
    }
    destroy() {
      this.calls.push("destroy");
    }
    emit(data: { fatal: boolean }) {
      for (const handler of this.handlers) handler("hlsError", data);
    }
  }
  let loads = 0;
  const load = async () => {
    loads += 1;
    return Hls as unknown as HlsConstructor;
  };
  return { load, instances, loads: () => loads };
}

const asVideo = (video: FakeVideo) => video as unknown as HTMLVideoElement;
/** The master's answers, in order (the last repeats), and the URLs asked for. */
function server(...statuses: number[]) {
  const asked: string[] = [];
  const fetchStream = (async (url: string) => {
    asked.push(url);
    const status = statuses.length > 1 ? (statuses.shift() as number) : (statuses[0] as number);
    return new Response(status === 202 ? "{}" : null, { status, headers: { "retry-after": "1" } });
  }) as unknown as typeof fetch;
  return { fetchStream, asked };
}
const READY = server(200).fetchStream;
/** Lets the dynamic import's promise settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("attachHls", () => {
  it("plays natively where the browser plays HLS, without loading hls.js", async () => {
    const video = new FakeVideo(true);
    const hls = fakeHls();
    const detach = attachHls(asVideo(video), SOURCES, hls.load, READY);
    await settle();
    expect(video.src).toBe(SOURCES.hls);
    expect(hls.loads()).toBe(0);
    detach();
    expect(video.hasAttribute("src")).toBe(false);
    expect(video.log).toEqual([`src ${SOURCES.hls}`, "remove src", "load"]);
    expect(video.listenerCount("error")).toBe(0);
  });

  it("natively, a playlist that fails falls back to the MP4 once", async () => {
    const video = new FakeVideo(true);
    attachHls(asVideo(video), SOURCES, fakeHls().load, READY);
    await settle();
    video.dispatch("error");
    expect(video.src).toBe(SOURCES.mp4);
    video.dispatch("error"); // the MP4's own failure is left to the page
    expect(video.log.filter((entry) => entry.startsWith("src"))).toHaveLength(2);
  });

  it("elsewhere loads hls.js, attaches the playlist, and destroys the instance on detach", async () => {
    const video = new FakeVideo(false);
    const hls = fakeHls();
    const detach = attachHls(asVideo(video), SOURCES, hls.load, READY);
    await settle();
    expect(hls.instances).toHaveLength(1);
    expect(hls.instances[0]?.calls).toEqual(["on hlsError", `loadSource ${SOURCES.hls}`, "attachMedia true"]);
    detach();
    expect(hls.instances[0]?.calls.at(-1)).toBe("destroy");
    detach(); // twice is harmless
    expect(hls.instances[0]?.calls.filter((call) => call === "destroy")).toHaveLength(1);
  });

  it("detached before the stream started: hls.js is never loaded and nothing is played", async () => {
    const video = new FakeVideo(false);
    const hls = fakeHls();
    attachHls(asVideo(video), SOURCES, hls.load, READY)();
    await settle();
    expect(hls.loads()).toBe(0);
    expect(hls.instances).toHaveLength(0);
    expect(video.log).toEqual([]);
  });

  it("plays the MP4 where Media Source Extensions are missing", async () => {
    const video = new FakeVideo(false);
    const hls = fakeHls(false);
    attachHls(asVideo(video), SOURCES, hls.load, READY);
    await settle();
    expect(hls.instances).toHaveLength(0);
    expect(video.src).toBe(SOURCES.mp4);
  });

  it("a fatal stream error destroys hls.js and plays the MP4; non-fatal ones are hls.js's to recover", async () => {
    const video = new FakeVideo(false);
    const hls = fakeHls();
    const detach = attachHls(asVideo(video), SOURCES, hls.load, READY);
    await settle();
    const instance = hls.instances[0];
    instance?.emit({ fatal: false });
    expect(instance?.calls).not.toContain("destroy");
    expect(video.src).toBe("");
    instance?.emit({ fatal: true });
    expect(instance?.calls.filter((call) => call === "destroy")).toHaveLength(1);
    expect(video.src).toBe(SOURCES.mp4);
    detach();
    expect(instance?.calls.filter((call) => call === "destroy")).toHaveLength(1);
    expect(video.hasAttribute("src")).toBe(false);
  });

  it("detach leaves a src it did not set (React's, after a switch to a plain MP4)", async () => {
    const video = new FakeVideo(true);
    const detach = attachHls(asVideo(video), SOURCES, fakeHls().load, READY);
    await settle();
    video.src = "http://127.0.0.1:1/assets/ws1/other.mp4";
    detach();
    expect(video.src).toBe("http://127.0.0.1:1/assets/ws1/other.mp4");
    expect(video.log).not.toContain("load");
  });

  it("plays the MP4 when hls.js cannot be loaded", async () => {
    const video = new FakeVideo(false);
    attachHls(asVideo(video), SOURCES, () => Promise.reject(new Error("chunk load failed")));
    await settle();
    expect(video.src).toBe(SOURCES.mp4);
  });

  it("while the server renders the ladder (202) plays the MP4, then streams once it is ready", async () => {
    const video = new FakeVideo(true);
    const master = server(202, 200);
    attachHls(asVideo(video), SOURCES, fakeHls().load, master.fetchStream);
    await settle();
    expect(video.src).toBe(SOURCES.mp4);
    // Retry-After: 1 s.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(master.asked).toEqual([SOURCES.hls, SOURCES.hls]);
    expect(video.src).toBe(SOURCES.hls);
  });

  it("keeps the MP4 a viewer is already watching when the ladder becomes ready, and when it fails", async () => {
    const watching = new FakeVideo(true);
    attachHls(asVideo(watching), SOURCES, fakeHls().load, server(202, 200).fetchStream);
    await settle();
    watching.paused = false;
    watching.currentTime = 0.5;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(watching.src).toBe(SOURCES.mp4);

    const failed = new FakeVideo(true);
    attachHls(asVideo(failed), SOURCES, fakeHls().load, server(404).fetchStream);
    await settle();
    expect(failed.log).toEqual([`src ${SOURCES.mp4}`]);
  });

  it("stops asking when detached", async () => {
    const video = new FakeVideo(true);
    const master = server(202);
    attachHls(asVideo(video), SOURCES, fakeHls().load, master.fetchStream)();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(master.asked.length).toBeLessThanOrEqual(1);
    expect(video.src).not.toBe(SOURCES.hls);
  });
});
