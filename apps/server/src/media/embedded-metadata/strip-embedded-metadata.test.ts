import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import exifr from "exifr";
import { describe, expect, it } from "vitest";
import { readEmbeddedMetadata } from "../../../test/fixtures/embedded-metadata/read-embedded-metadata.js";
import { EmbeddedMetadataError } from "./embedded-metadata-error.js";
import { stripEmbeddedMetadata } from "./strip-embedded-metadata.js";

const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/embedded-metadata/", import.meta.url));
const fixture = (name: string) => readFileSync(`${FIXTURES}${name}`);

/** file, format, the orientation its EXIF says */
const CASES = [
  ["gps.jpg", "jpeg", 6],
  ["gps.png", "png", 1],
  ["gps.webp", "webp", 6],
  ["gps.tif", "tiff", 1],
  ["gps.heic", "heic", 6],
] as const;

/** The JPEG's entropy-coded data and what follows it: from the SOS marker to EOI. */
function scanData(jpeg: Buffer): Buffer {
  return jpeg.subarray(
    jpeg.indexOf(Buffer.from([0xff, 0xda])),
    jpeg.lastIndexOf(Buffer.from([0xff, 0xd9])) + 2,
  );
}

describe("stripEmbeddedMetadata: strip", () => {
  it.each(CASES)(
    "%s: no GPS, serial, names or comments; ICC and orientation kept",
    async (name, format, orientation) => {
      const original = fixture(name);
      const before = await readEmbeddedMetadata(original);
      expect(before.latitude).toBeCloseTo(48.8583, 3);
      expect(before.text).toContain("SN-12345-SECRET");

      const stripped = stripEmbeddedMetadata(original, format, "strip");
      if (!stripped) throw new Error("nothing stripped");
      const after = await readEmbeddedMetadata(stripped);
      expect(after.latitude).toBeUndefined();
      for (const secret of ["SN-12345", "Jane_", "Our_home", "Secret_comment", "comment", "Iptc"]) {
        expect(after.text).not.toContain(secret);
      }
      expect(after.iccDescription).toBe(before.iccDescription);
      expect(after.orientation ?? 1).toBe(orientation);
      // Nothing left to strip: said without a copy.
      expect(stripEmbeddedMetadata(stripped, format, "strip")).toBeNull();
    },
  );

  it("JPEG: the image data is bit-identical, and nothing but metadata segments is dropped", () => {
    const original = fixture("gps.jpg");
    const stripped = stripEmbeddedMetadata(original, "jpeg", "strip") as Buffer;
    expect(scanData(stripped).equals(scanData(original))).toBe(true);
    expect(stripped.length).toBeLessThan(original.length);
  });

  it("TIFF and HEIC keep their length: nothing moves, every offset stays valid", () => {
    for (const [name, format] of [
      ["gps.tif", "tiff"],
      ["gps.heic", "heic"],
    ] as const) {
      const original = fixture(name);
      expect((stripEmbeddedMetadata(original, format, "strip") as Buffer).length).toBe(original.length);
    }
  });

  it("keep, and GIF, change nothing", () => {
    expect(stripEmbeddedMetadata(fixture("gps.jpg"), "jpeg", "keep")).toBeNull();
    expect(stripEmbeddedMetadata(Buffer.from("GIF89a"), "gif", "strip")).toBeNull();
  });
});

describe("stripEmbeddedMetadata: strip-location", () => {
  it.each(CASES)("%s: GPS gone, the artist and the serial kept", async (name, format) => {
    const stripped = stripEmbeddedMetadata(fixture(name), format, "strip-location");
    if (!stripped) throw new Error("nothing stripped");
    const after = await readEmbeddedMetadata(stripped);
    expect(after.latitude).toBeUndefined();
    expect(after.text).not.toMatch(/GPSLatitude/);
    expect(after.text).toContain("Jane_Artist");
    expect(after.text).toContain("SN-12345-SECRET");
    expect(stripEmbeddedMetadata(stripped, format, "strip-location")).toBeNull();
  });
});

describe("stripEmbeddedMetadata: hostile and broken files", () => {
  /** A deterministic PRNG (mulberry32), so a failure can be replayed. */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  const attempt = (bytes: Buffer, format: string, mode: "strip" | "strip-location") => {
    try {
      stripEmbeddedMetadata(bytes, format, mode);
    } catch (error) {
      if (!(error instanceof EmbeddedMetadataError)) throw error;
    }
  };

  it.each(CASES)(
    "%s: every truncation and 400 random mutations throw nothing but EmbeddedMetadataError",
    (name, format) => {
      const original = fixture(name);
      for (let length = 0; length < original.length; length += 7) {
        for (const mode of ["strip", "strip-location"] as const)
          attempt(original.subarray(0, length), format, mode);
      }
      const next = random(original.length);
      for (let round = 0; round < 400; round++) {
        const mutated = Buffer.from(original);
        const edits = 1 + Math.floor(next() * 8);
        for (let edit = 0; edit < edits; edit++) {
          // Mostly in the metadata-rich head, where the length fields are.
          const at = Math.floor(next() * Math.min(mutated.length, next() < 0.7 ? 2048 : mutated.length));
          mutated[at] = next() < 0.3 ? 0xff : Math.floor(next() * 256);
        }
        for (const mode of ["strip", "strip-location"] as const) attempt(mutated, format, mode);
      }
    },
  );

  it("a TIFF whose IFDs point at each other in a loop is walked once", () => {
    const tiff = Buffer.alloc(64);
    tiff.write("II", 0, "latin1");
    tiff.writeUInt16LE(42, 2);
    tiff.writeUInt32LE(8, 4);
    tiff.writeUInt16LE(1, 8);
    tiff.writeUInt16LE(0x8769, 10); // Exif IFD pointer ...
    tiff.writeUInt16LE(4, 12);
    tiff.writeUInt32LE(1, 14);
    tiff.writeUInt32LE(8, 18); // ... back at IFD0
    tiff.writeUInt32LE(8, 22); // and the next IFD is IFD0 again
    for (const mode of ["strip", "strip-location"] as const) {
      expect(() => stripEmbeddedMetadata(tiff, "tiff", mode)).not.toThrow();
    }
  });

  it("a TIFF value whose length lies past the file is refused, not read", () => {
    const tiff = Buffer.alloc(40);
    tiff.write("MM", 0, "latin1");
    tiff.writeUInt16BE(42, 2);
    tiff.writeUInt32BE(8, 4);
    tiff.writeUInt16BE(1, 8);
    tiff.writeUInt16BE(0x013b, 10); // Artist, ASCII, 4 GB at offset 30
    tiff.writeUInt16BE(2, 12);
    tiff.writeUInt32BE(0xffffffff, 14);
    tiff.writeUInt32BE(30, 18);
    expect(() => stripEmbeddedMetadata(tiff, "tiff", "strip")).toThrow(EmbeddedMetadataError);
  });

  it("JPEG: a second APP1 Exif, XMP after the image data and bytes after EOI are all removed", async () => {
    const original = fixture("gps.jpg");
    const exif = original.subarray(2, 4 + original.readUInt16BE(4)); // the first APP1 (Exif)
    const eoi = original.lastIndexOf(Buffer.from([0xff, 0xd9]));
    const sos = original.indexOf(Buffer.from([0xff, 0xda]));
    const xmp = Buffer.from(
      "http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><exif:GPSLatitude>48,51.5N</exif:GPSLatitude>",
    );
    const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0, 0]), xmp]);
    app1.writeUInt16BE(app1.length - 2, 2);
    const hostile = Buffer.concat([
      original.subarray(0, sos),
      exif, // a second Exif, before the scan
      original.subarray(sos, eoi),
      app1, // XMP between the scan and EOI
      original.subarray(eoi),
      exif, // and EXIF after EOI
    ]);
    for (const mode of ["strip", "strip-location"] as const) {
      const stripped = stripEmbeddedMetadata(hostile, "jpeg", mode) as Buffer;
      expect(stripped.includes(Buffer.from("GPSLatitude"))).toBe(false);
      expect(stripped.indexOf(Buffer.from([0xff, 0xd9]))).toBe(stripped.length - 2);
      expect((await readEmbeddedMetadata(stripped)).latitude).toBeUndefined();
    }
    expect(stripEmbeddedMetadata(hostile, "jpeg", "strip")?.includes(Buffer.from("SN-12345"))).toBe(false);
  });

  it("PNG: EXIF hidden in a tEXt 'Raw profile type exif' chunk goes in both modes", () => {
    const original = fixture("gps.png");
    const hex = Buffer.from("\nexif\n      40\n4578696600004d4d002a00000008GPS\n");
    const body = Buffer.concat([Buffer.from("Raw profile type exif\0"), hex]);
    const chunk = Buffer.alloc(12 + body.length);
    chunk.writeUInt32BE(body.length, 0);
    chunk.write("tEXt", 4, "latin1");
    body.copy(chunk, 8);
    const hostile = Buffer.concat([original.subarray(0, 33), chunk, original.subarray(33)]);
    for (const mode of ["strip", "strip-location"] as const) {
      const stripped = stripEmbeddedMetadata(hostile, "png", mode) as Buffer;
      expect(stripped.includes(Buffer.from("Raw profile type exif"))).toBe(false);
    }
  });

  it("exifr reads the fixtures it is asked about (the reader the e2e tests trust)", async () => {
    expect(await exifr.gps(fixture("gps.jpg"))).toMatchObject({ latitude: expect.closeTo(48.8583, 3) });
  });
});
