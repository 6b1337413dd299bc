// Node, no DOM: what a server-rendered app does with @trove/react. Importing the entries and
// rendering every component must make this package and the SDK read no browser global; the upload
// client is not even made. (zod, which the SDK's URL builder imports unbundled, probes
// `typeof navigator` when its schemas are built: a guarded read, and bundles drop zod here.)
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

const OUR_CODE = /packages\/(react|sdk|schema)\/src\//;
const BROWSER_GLOBALS = [
  "window",
  "document",
  "navigator",
  "localStorage",
  "sessionStorage",
  "XMLHttpRequest",
];

/** Each browser global as a getter that records any read, for the duration of `run`. */
async function watchingGlobals<T>(run: () => Promise<T>): Promise<{ value: T; touched: string[] }> {
  const touched: string[] = [];
  const saved = BROWSER_GLOBALS.map(
    (name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)] as const,
  );
  for (const name of BROWSER_GLOBALS) {
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        // The frame that read the global: ours (react, sdk, schema sources) or a dependency's.
        const reader = new Error().stack?.split("\n")[2] ?? "";
        if (OUR_CODE.test(reader)) touched.push(`${name} from ${reader.trim()}`);
        return undefined;
      },
    });
  }
  try {
    return { value: await run(), touched };
  } finally {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else delete (globalThis as Record<string, unknown>)[name];
    }
  }
}

describe("server rendering", () => {
  it("imports both entries and renders provider, uploader and image without a browser global", async () => {
    const { value: html, touched } = await watchingGlobals(async () => {
      const react = await import("./index.js");
      const image = await import("./image.js");
      expect(image.TroveImage).toBe(react.TroveImage);
      return renderToString(
        <react.TroveProvider
          baseUrl="http://127.0.0.1:1"
          publicKey="trove_pk_x"
          assetsUrl="http://127.0.0.1:1/assets"
        >
          <react.TroveUploader accept="image/*" hint="Images up to 10 MB" />
          <react.TroveImage
            src="ws1/photos/cat.jpg"
            alt="A cat"
            width={300}
            height={200}
            placeholder="blur"
          />
        </react.TroveProvider>,
      );
    });
    expect(touched).toEqual([]);
    expect(html).toContain('type="file"');
    expect(html).toContain('accept="image/*,.heic,.heif"');
    expect(html).toContain('aria-live="polite"');
    expect(html).toContain('src="http://127.0.0.1:1/assets/ws1/w_300,h_200,c_fill,f_auto/photos/cat.jpg"');
    expect(html).toContain('loading="lazy"');
    expect(html).toContain("w_24,h_16,c_fill,f_auto,q_30");
  });

  it("imports the video entry and renders a stream's poster without a browser global", async () => {
    const assets = "http://127.0.0.1:1/assets";
    const { value: video, touched } = await watchingGlobals(async () => {
      const entry = await import("./video.js");
      const stream = <entry.TroveVideo src="ws1/clips/a.mp4" assetsUrl={assets} streaming={[240, 360]} />;
      return { entry, html: renderToString(stream) };
    });
    expect(touched).toEqual([]);
    expect(video.html).toContain(`poster="${assets}/ws1/thumb_ar/clips/a.mp4"`);
    expect(video.entry.TroveVideo).toBe((await import("./index.js")).TroveVideo);
  });

  it("labels the file input with the drop zone and links the hint", async () => {
    const { TroveUploader } = await import("./index.js");
    const html = renderToString(<TroveUploader hint="Up to 10 MB" capture="environment" />);
    const inputId = /<input id="([^"]+)"/.exec(html)?.[1];
    expect(inputId).toBeTruthy();
    expect(html).toContain(`for="${inputId}"`);
    expect(html).toContain('capture="environment"');
    const hintId = /aria-describedby="([^"]+)"/.exec(html)?.[1];
    expect(html).toContain(`id="${hintId}">Up to 10 MB`);
  });
});
