import { describe, expect, it } from "vitest";
import { sniffVideoContainer } from "./sniff-video-container.js";

/** An `ftyp` box: size, type, major brand, minor version, compatible brands. */
function ftyp(major: string, ...compatible: string[]): Buffer {
  const size = 16 + 4 * compatible.length;
  const box = Buffer.alloc(size);
  box.writeUInt32BE(size, 0);
  box.write("ftyp", 4, "latin1");
  box.write(major, 8, "latin1");
  for (const [index, brand] of compatible.entries()) box.write(brand, 16 + 4 * index, "latin1");
  return Buffer.concat([box, Buffer.from("\0\0\0\x08free")]);
}

/** An EBML header carrying a DocType, as muxers write it. */
function ebml(docType: string): Buffer {
  const doc = Buffer.from(docType, "latin1");
  const body = Buffer.concat([
    Buffer.from([0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01]),
    Buffer.from([0x42, 0x82, 0x80 | doc.length]),
    doc,
  ]);
  return Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | body.length]), body]);
}

describe("sniffVideoContainer", () => {
  it.each([
    ["isom", ["isom", "iso2", "avc1", "mp41"]],
    ["mp42", ["isom"]],
    ["iso5", []],
    ["avc1", []],
    ["M4V ", ["M4V ", "mp42"]],
    ["dash", ["iso6"]],
    ["3gp5", ["3gp5", "isom"]],
    ["3g2a", []],
  ])("reads an ftyp with major brand %j as MP4", (major, compatible) => {
    expect(sniffVideoContainer(ftyp(major, ...compatible))).toBe("mp4");
  });

  it("reads QuickTime's brand as MOV", () => {
    expect(sniffVideoContainer(ftyp("qt  ", "qt  "))).toBe("mov");
  });

  it("takes a compatible video brand when the major brand is unknown", () => {
    expect(sniffVideoContainer(ftyp("XAVC", "XAVC", "mp42", "iso2"))).toBe("mp4");
    expect(sniffVideoContainer(ftyp("XAVC", "XAVC"))).toBeNull();
  });

  it.each([
    ["heic", ["mif1", "heic"]],
    ["mif1", ["mif1", "heic"]],
    ["avif", ["avif", "mif1", "miaf"]],
    ["msf1", ["msf1", "iso8"]],
    ["isom", ["isom", "avif"]],
  ])("never reads a still-image brand (%j) as a video", (major, compatible) => {
    expect(sniffVideoContainer(ftyp(major, ...compatible))).toBeNull();
  });

  it("reads an EBML header's DocType: webm or matroska", () => {
    expect(sniffVideoContainer(ebml("webm"))).toBe("webm");
    expect(sniffVideoContainer(ebml("matroska"))).toBe("matroska");
    expect(sniffVideoContainer(ebml("other"))).toBeNull();
  });

  it.each([
    ["an HLS playlist", "#EXTM3U\n#EXT-X-VERSION:3\nhttp://127.0.0.1/seg.ts\n"],
    ["an ffconcat list", "ffconcat version 1.0\nfile '/etc/passwd'\n"],
    ["an SDP file", "v=0\no=- 0 0 IN IP4 127.0.0.1\nm=video 5004 RTP/AVP 96\n"],
    ["an empty file", ""],
    ["a truncated ftyp", "\0\0\0\x18ftyp"],
  ])("returns null for %s", (_, text) => {
    expect(sniffVideoContainer(Buffer.from(text, "latin1"))).toBeNull();
  });

  it("refuses an ftyp box whose size is too small to hold its brands", () => {
    const box = ftyp("isom");
    box.writeUInt32BE(8, 0);
    expect(sniffVideoContainer(box)).toBeNull();
  });
});
