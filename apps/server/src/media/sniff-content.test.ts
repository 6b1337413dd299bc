import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { solid } from "../../test/support/test-images.js";
import { fileNameExtension } from "./file-name-extension.js";
import { SNIFF_HEAD_BYTES, sniffContent } from "./sniff-content.js";

const red = { r: 255, g: 0, b: 0 };
const text = (value: string) => new TextEncoder().encode(value);

describe("sniffContent", () => {
  it.each([
    ["jpeg", "image/jpeg", "jpg"],
    ["png", "image/png", "png"],
    ["webp", "image/webp", "webp"],
    ["gif", "image/gif", "gif"],
    ["avif", "image/avif", "avif"],
    ["tiff", "image/tiff", "tif"],
  ] as const)("recognises %s from its bytes", async (format, mimeType, extension) => {
    const bytes = await solid(8, 8, red, format);
    expect(await sniffContent(bytes)).toEqual({ mimeType, format, extension, isRasterImage: true });
  });

  it("believes the bytes, not the name: a .jpg name on PNG content is a png", async () => {
    const bytes = await solid(8, 8, red, "png");
    expect(await sniffContent(bytes, "holiday.jpg")).toMatchObject({
      mimeType: "image/png",
      format: "png",
      extension: "png",
    });
  });

  it("reads only the head: a long file is identified from its first bytes", async () => {
    const bytes = Buffer.concat([await solid(64, 64, red, "png"), Buffer.alloc(100_000)]);
    expect((await sniffContent(bytes.subarray(0, SNIFF_HEAD_BYTES))).format).toBe("png");
    expect((await sniffContent(bytes)).format).toBe("png");
  });

  it("recognises a PDF and never treats it as an image", async () => {
    const pdf = text("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n");
    expect(await sniffContent(pdf, "report.png")).toEqual({
      mimeType: "application/pdf",
      format: "pdf",
      extension: "pdf",
      isRasterImage: false,
    });
  });

  it("labels unknown binary octet-stream, with the file name's extension or bin", async () => {
    // Random bytes, but with a NUL so they are never mistaken for text.
    const bytes = Buffer.concat([Buffer.from([0x00, 0x01, 0x02, 0x03]), randomBytes(2000)]);
    expect(await sniffContent(bytes, "Backup.DAT")).toEqual({
      mimeType: "application/octet-stream",
      format: "dat",
      extension: "dat",
      isRasterImage: false,
    });
    expect(await sniffContent(bytes)).toMatchObject({
      mimeType: "application/octet-stream",
      extension: "bin",
    });
    expect(await sniffContent(bytes, "../../etc/pass wd")).toMatchObject({ extension: "bin" });
    expect(await sniffContent(bytes, "x.verylongextension123")).toMatchObject({ extension: "bin" });
  });

  it("never trusts a claimed image extension on unknown bytes", async () => {
    const bytes = Buffer.concat([Buffer.from([0x00, 0xff]), randomBytes(100)]);
    const sniffed = await sniffContent(bytes, "cat.png");
    expect(sniffed).toMatchObject({
      mimeType: "application/octet-stream",
      extension: "png",
      isRasterImage: false,
    });
  });

  it("labels an empty file octet-stream", async () => {
    expect(await sniffContent(new Uint8Array(0), "empty.txt")).toMatchObject({
      mimeType: "application/octet-stream",
      extension: "txt",
    });
  });

  describe("SVG", () => {
    it.each([
      ["bare", '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'],
      [
        "with declaration and comment",
        '<?xml version="1.0"?>\n<!-- made by hand -->\n<svg viewBox="0 0 1 1"></svg>',
      ],
      [
        "with an XXE doctype",
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>',
      ],
      ["with a BOM", "\uFEFF<svg></svg>"],
    ])("is recognised (%s) and not a raster image", async (_, source) => {
      expect(await sniffContent(text(source), "logo.png")).toEqual({
        mimeType: "image/svg+xml",
        format: "svg",
        extension: "svg",
        isRasterImage: false,
      });
    });
  });

  describe("text", () => {
    it("labels UTF-8 text by its name only for inert types", async () => {
      expect(await sniffContent(text('{"a": "é"}'), "data.json")).toMatchObject({
        mimeType: "application/json",
        extension: "json",
      });
      expect(await sniffContent(text("a,b\n1,2\n"), "rows.CSV")).toMatchObject({ mimeType: "text/csv" });
      expect(await sniffContent(text("hello"), undefined)).toMatchObject({
        mimeType: "text/plain",
        extension: "txt",
      });
    });

    it("serves HTML and non-SVG XML as text/plain, never as active content", async () => {
      expect(await sniffContent(text("<html><script>alert(1)</script></html>"), "x.html")).toMatchObject({
        mimeType: "text/plain",
        extension: "html",
      });
      expect(
        await sniffContent(text('<?xml version="1.0"?>\n<note><to>me</to></note>'), "n.xml"),
      ).toMatchObject({
        mimeType: "text/plain",
        format: "xml",
      });
    });

    it("accepts a head cut inside a multi-byte character", async () => {
      // One ASCII byte then two-byte characters: the head's last byte starts an "é".
      const long = text(`a${"é".repeat(SNIFF_HEAD_BYTES)}`);
      expect(await sniffContent(long.subarray(0, SNIFF_HEAD_BYTES), "notes.md")).toMatchObject({
        mimeType: "text/markdown",
      });
      expect(await sniffContent(long, "notes.md")).toMatchObject({ mimeType: "text/markdown" });
    });

    it("treats invalid UTF-8 or control bytes as binary", async () => {
      expect(await sniffContent(Buffer.from([0x68, 0x69, 0xff, 0xfe, 0x41]), "a.txt")).toMatchObject({
        mimeType: "application/octet-stream",
      });
      expect(await sniffContent(Buffer.from("abc\u0001def"), "a.txt")).toMatchObject({
        mimeType: "application/octet-stream",
      });
    });
  });
});

describe("fileNameExtension", () => {
  it.each([
    ["photo.JPG", "jpg"],
    ["archive.tar.gz", "gz"],
    ["C:\\fakepath\\scan.TIFF", "tiff"],
    ["dir/sub/file.mp4", "mp4"],
    [".bashrc", undefined],
    ["README", undefined],
    ["trailing.", undefined],
    ["weird.j-p-g", undefined],
    ["unicode.pnğ", undefined],
    ["a.1234567890123456", "1234567890123456"],
    ["a.12345678901234567", undefined],
    [undefined, undefined],
  ])("%s → %s", (name, extension) => {
    expect(fileNameExtension(name)).toBe(extension);
  });
});
