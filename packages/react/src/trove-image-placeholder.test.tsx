// @vitest-environment happy-dom

import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { thumbHashToDataUrl } from "@trove/sdk/placeholder";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { TroveImage } from "./trove-image.js";

afterEach(cleanup);

const ASSETS = "http://127.0.0.1:1/assets";

/** The ThumbHash of a 60×40 image in one red (thumbhash's rgbaToThumbHash, as the server sends it). */
const thumbhash = "1joDBYA6OXt2iHh3ePd3eAt41wR3";
const DATA_URL = "data:image/webp;base64,UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA=";
/** A details record: a placeholder with its data URL, and its size. */
const details = {
  placeholder: { thumbhash, color: "#c8281e", data_url: DATA_URL },
  dimensions: { width: 1200, height: 800 },
};
/** A list row: a placeholder without data URL. */
const listRow = { placeholder: { thumbhash, color: "#c8281e" }, width: 1200, height: 800 };

const image = (props: Partial<Parameters<typeof TroveImage>[0]>) => (
  <TroveImage src="ws1/photos/cat.jpg" alt="A cat" assetsUrl={ASSETS} {...props} />
);
const styleOf = (html: string) => /style="([^"]*)"/.exec(html)?.[1]?.replaceAll("&quot;", '"') ?? "";

describe("<TroveImage file> placeholders", () => {
  it("blurs by default with the record's data URL, and takes width and height from the record", () => {
    const html = renderToString(image({ file: details }));
    expect(styleOf(html)).toContain(`background-image:url("${DATA_URL}")`);
    expect(html).toContain('width="1200"');
    expect(html).toContain('height="800"');
    expect(styleOf(html)).toContain("max-width:100%");
    expect(styleOf(html)).toContain("height:auto");
    // The sources are not fixed to the record's size: no 1x/2x of 1200 px.
    expect(html).not.toContain("w_2400");
  });

  it("decodes a list row's ThumbHash when the record has no data URL", () => {
    const html = renderToString(image({ file: listRow }));
    expect(styleOf(html)).toContain(`background-image:url("${thumbHashToDataUrl(thumbhash)}")`);
    expect(thumbHashToDataUrl(thumbhash).startsWith("data:image/png;base64,")).toBe(true);
  });

  it('placeholder="color" shows the dominant colour; "none" nothing; given sizes win over the record\'s', () => {
    expect(styleOf(renderToString(image({ file: details, placeholder: "color" })))).toContain(
      "background-color:#c8281e",
    );
    const none = renderToString(image({ file: details, placeholder: "none", width: 300, height: 200 }));
    expect(none).not.toContain("background");
    expect(none).toContain('width="300"');
    expect(none).not.toContain("max-width");
  });

  it("a record without a placeholder shows none by default; blur then falls back to the tiny rendition", () => {
    expect(renderToString(image({ file: { placeholder: null } }))).not.toContain("background");
    const blur = renderToString(
      image({ file: { placeholder: null }, placeholder: "blur", width: 300, height: 200 }),
    );
    expect(blur).toContain("w_24,h_16,c_fill,f_auto,q_30");
  });

  it("a ThumbHash that does not decode falls back to the tiny rendition instead of throwing", () => {
    const html = renderToString(
      image({ file: { placeholder: { thumbhash: "%%%", color: "#000000" } }, width: 300, height: 200 }),
    );
    expect(html).toContain("w_24,h_16,c_fill,f_auto,q_30");
  });

  it("drops the placeholder once the image has loaded", () => {
    // happy-dom loads nothing, so every image reports complete: make this one still loading.
    const complete = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "complete");
    Object.defineProperty(HTMLImageElement.prototype, "complete", { configurable: true, get: () => false });
    try {
      render(image({ file: details }));
      const img = screen.getByAltText("A cat") as HTMLImageElement;
      expect(img.style.backgroundImage).toContain("data:image/webp");
      fireEvent.load(img);
      expect(img.style.backgroundImage).toBe("");
      expect(img.style.maxWidth).toBe("100%");
    } finally {
      if (complete) Object.defineProperty(HTMLImageElement.prototype, "complete", complete);
      else delete (HTMLImageElement.prototype as { complete?: boolean }).complete;
    }
  });
});
