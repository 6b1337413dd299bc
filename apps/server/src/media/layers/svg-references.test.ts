import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { checkSvgReferences } from "./svg-references.js";

const svg = (body: string, head = "") =>
  `${head}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">${body}</svg>`;
const png = async (width: number, height: number) =>
  (
    await sharp({ create: { width, height, channels: 3, background: "#00f" } })
      .png()
      .toBuffer()
  ).toString("base64");

describe("checkSvgReferences", () => {
  it("lets fragments and embedded raster images through", async () => {
    await expect(
      checkSvgReferences(svg('<use href="#a"/><use xlink:href="#b"/>'), 100),
    ).resolves.toBeUndefined();
    const image = `<image href="data:image/png;base64,${await png(5, 5)}"/>`;
    await expect(checkSvgReferences(svg(image), 100)).resolves.toBeUndefined();
  });

  it.each([
    ["an absolute path", '<image href="/etc/hostname.png"/>'],
    ["a relative path", '<image href="logo.png"/>'],
    ["a file URL", '<image xlink:href="file:///etc/passwd"/>'],
    ["an http URL", '<image href="http://127.0.0.1/x.png"/>'],
    ["another prefix for xlink", '<image a:href="/x.png" xmlns:a="http://www.w3.org/1999/xlink"/>'],
    ["single quotes and spaces", "<image href = '/x.png'/>"],
    ["a path spelt with character references", '<image href="&#47;etc&#x2F;x.png"/>'],
    ["a fragment spelt with a leading space", '<image href=" #a"/>'],
    ["feImage", '<filter><feImage href="/x.png"/></filter>'],
    [
      "an SVG inside a data: URL",
      `<image href="data:image/svg+xml;base64,${Buffer.from("<svg/>").toString("base64")}"/>`,
    ],
    [
      "SVG bytes labelled PNG",
      `<image href="data:image/png;base64,${Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64")}"/>`,
    ],
  ])("refuses %s", async (_, body) => {
    await expect(checkSvgReferences(svg(body), 1_000_000)).rejects.toThrow(/l_image: this SVG/);
  });

  it("refuses entity declarations, which could spell an href the scan cannot see", async () => {
    const head = '<!DOCTYPE svg [<!ENTITY a "/etc/x.png">]>';
    await expect(checkSvgReferences(svg('<image href="&a;"/>', head), 100)).rejects.toThrow(/entities/);
  });

  it("counts embedded images' pixels against the limit", async () => {
    const image = `<image href="data:image/png;base64,${await png(20, 20)}"/>`;
    await expect(checkSvgReferences(svg(image + image), 799)).rejects.toThrow(/799 pixels/);
    await expect(checkSvgReferences(svg(image + image), 800)).resolves.toBeUndefined();
  });
});
